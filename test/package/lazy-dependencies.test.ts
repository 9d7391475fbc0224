import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');
const LYRICIST_IDEA = join(ROOT, 'test', 'codegen', 'fixtures', 'lyricist.idea.json');
/** The heavy dependencies a plain `require('ideact')` must not load (issue 15, light imports). */
const CODEGEN_PACKAGES = ['json-schema-to-typescript', 'prettier'];

/**
 * Runs `script` (may await) in a fresh process at the repository root, then lists the packages in its
 * `require.cache` by their node_modules name: what the BUILT package (dist/) loaded.
 */
function packagesLoadedBy(script: string): string[] {
  const output = execFileSync(
    process.execPath,
    [
      '-e',
      `(async () => {
         ${script};
         const names = new Set();
         for (const file of Object.keys(require.cache)) {
           const match = file.match(/node_modules\\/((@[^/]+\\/)?[^/]+)/);
           if (match) names.add(match[1]);
         }
         process.stdout.write(JSON.stringify([...names].sort()));
       })().catch((error) => { console.error(error); process.exit(1); });`,
    ],
    { cwd: ROOT, encoding: 'utf8' },
  );
  return JSON.parse(output) as string[];
}

/** Runs `script` in a fresh process at the repository root and returns what it printed. */
function run(script: string, nodeOptions: string[] = []): string {
  return execFileSync(process.execPath, [...nodeOptions, '-e', script], {
    cwd: ROOT,
    encoding: 'utf8',
  });
}

describe('importing the built package', () => {
  it('loads only reflect-metadata: typedi, the OpenAI client, ajv and class-validator wait for their first use', () => {
    expect(packagesLoadedBy("require('./dist')")).toEqual(['reflect-metadata']);
  });

  it('the lazy entry (scripts/lazy-entry.mjs) leaves the call pipeline, container, agent loop and codegen modules unloaded', () => {
    const loaded: string[] = JSON.parse(
      run(
        "require('./dist'); process.stdout.write(JSON.stringify(Object.keys(require.cache).map((file) => require('node:path').relative('dist', file))))",
      ),
    );
    for (const module of [
      'calls/executor.js',
      'agent/agent.js',
      'container/create-container.js',
      'codegen/generate-from-ideas.js',
      'llm/openai/openai-provider.js',
    ]) {
      expect(loaded).not.toContain(module);
    }
  });

  it('every export of the lazy entry is the value of its own module, loaded on first access', () => {
    const report = JSON.parse(
      run(
        "const ideact = require('./dist'); const names = Object.keys(ideact); " +
          'const missing = names.filter((name) => ideact[name] === undefined); ' +
          'process.stdout.write(JSON.stringify({ count: names.length, missing, ' +
          "sameExecutor: ideact.Executor === require('./dist/calls/executor').Executor, " +
          "sameTool: ideact.Tool === require('./dist/decorators/tool.decorator').Tool }))",
      ),
    ) as { count: number; missing: string[]; sameExecutor: boolean; sameTool: boolean };
    expect(report.count).toBeGreaterThan(100);
    expect(report.missing).toEqual([]);
    expect(report.sameExecutor).toBe(true);
    expect(report.sameTool).toBe(true);
  });

  it('ESM named imports still see every export (the getters keep the form cjs-module-lexer detects)', () => {
    const output = run(
      "import { Executor, createAgent, Service, InvalidIdeaError } from './dist/index.js'; " +
        "import * as ideact from './dist/index.js'; " +
        "process.stdout.write([typeof Executor, typeof createAgent, typeof Service, typeof InvalidIdeaError].join(' ') + ' ' + Object.keys(ideact).includes('OpenAIProvider'))",
      ['--input-type=module'],
    );
    expect(output).toBe('function function function function true');
  });

  it('require(ideact) loads neither the openai client nor json-schema-to-typescript nor prettier', () => {
    const loaded = packagesLoadedBy("require('./dist')");
    for (const name of ['openai', ...CODEGEN_PACKAGES]) expect(loaded).not.toContain(name);
  });

  it('loads ajv on the first validation and the openai client with the first OpenAIProvider', () => {
    const loaded = packagesLoadedBy(
      "const ideact = require('./dist'); ideact.validateJson({ type: 'string' }, 'x'); new ideact.OpenAIProvider({ apiKey: 'test' })",
    );
    expect(loaded).toEqual(expect.arrayContaining(['ajv', 'ajv-formats', 'openai']));
    expect(loaded).not.toContain('class-validator');
    expect(loaded).not.toContain('@opentelemetry/api');
    for (const name of CODEGEN_PACKAGES) expect(loaded).not.toContain(name);
  });

  it('loads @opentelemetry/api (tracing, issue 16) with the agent loop, not before', () => {
    const loaded = packagesLoadedBy(
      "const { ScriptedProvider } = require('./dist/testing'); " +
        "await require('./dist').createAgent({ tools: [], provider: new ScriptedProvider([{ calls: [], output: 'x' }]) }).run({ task: 't' })",
    );
    expect(loaded).toContain('@opentelemetry/api');
    for (const name of ['openai', ...CODEGEN_PACKAGES]) expect(loaded).not.toContain(name);
  });

  it('loads json-schema-to-typescript and prettier when codegen runs, and still not the openai client', () => {
    const outDir = mkdtempSync(join(tmpdir(), 'ideact-lazy-'));
    try {
      const loaded = packagesLoadedBy(
        `await require('./dist').generateFromIdeas([${JSON.stringify(LYRICIST_IDEA)}], ` +
          `{ outDir: ${JSON.stringify(outDir)}, moduleRoot: ${JSON.stringify(join(LYRICIST_IDEA, '..'))} })`,
      );
      expect(loaded).toEqual(expect.arrayContaining(CODEGEN_PACKAGES));
      expect(loaded).not.toContain('openai');
    } finally {
      rmSync(outDir, { recursive: true, force: true });
    }
  });
});
