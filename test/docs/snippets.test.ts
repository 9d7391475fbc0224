import { execFileSync, spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import ts from 'typescript';
import { extractSnippets, type DocSnippet } from '../support/doc-snippets';

/**
 * Issue 14, item 12: the docs match the code. Every fenced ```ts block of README.md and docs/*.md is
 * type-checked against the BUILT package (imported as `ideact`, the way an app imports it; `npm test`
 * builds first) in one TypeScript program, and every block not marked compile-only is compiled to
 * JavaScript and run with node (no API key, no network: connections other than 127.0.0.1 throw).
 * Directives are HTML comments before a block; see test/support/doc-snippets.ts.
 */
const ROOT = path.resolve(__dirname, '..', '..');
const DOC_FILES = [
  'README.md',
  ...readdirSync(path.join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`),
];
const SNIPPETS = DOC_FILES.flatMap((file) =>
  extractSnippets(readFileSync(path.join(ROOT, file), 'utf8'), file),
);
const CODE = SNIPPETS.filter((snippet) => snippet.language === 'ts');
const CHECKED = CODE.filter((snippet) => snippet.mode !== 'skip');
const RUNNABLE = CODE.filter((snippet) => snippet.mode === 'run');
/** Blocks in other languages saved with `snippet-file` (e.g. an Idea): put where snippets run. */
const DATA_FILES = SNIPPETS.filter((snippet) => snippet.language !== 'ts');

/**
 * The compiler options of the README's "Install in your app" tsconfig.json, so the snippets are checked
 * with exactly what users are told to use. Only `types` is narrowed to `node` (an app has no jest
 * types) and every file is a module.
 */
function readmeCompilerOptions(): ts.CompilerOptions {
  const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Install in your app'));
  const block = /```json\n([\s\S]*?)\n```/.exec(section);
  if (block === null) throw new Error('README.md: no tsconfig.json block in "Install in your app"');
  const json = JSON.parse(block[1]!) as { compilerOptions: Record<string, unknown> };
  const converted = ts.convertCompilerOptionsFromJson(json.compilerOptions, ROOT);
  if (converted.errors.length > 0) {
    throw new Error(
      `README.md tsconfig.json: ${converted.errors.map((error) => ts.flattenDiagnosticMessageText(error.messageText, ' ')).join('; ')}`,
    );
  }
  return { ...converted.options, types: ['node'], moduleDetection: ts.ModuleDetectionKind.Force };
}

/** Refuses every connection that is not to this machine, so a snippet cannot reach a real API. */
const NO_NETWORK = `
const net = require('node:net');
const connect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function (...args) {
  const options = Array.isArray(args[0]) ? args[0][0] : args[0];
  const host = typeof options === 'object' && options !== null ? options.host : args[1];
  const local = typeof options === 'object' && options !== null && options.path !== undefined;
  if (!local && !['127.0.0.1', 'localhost', '::1', undefined].includes(host)) {
    throw new Error('a docs snippet tried to reach the network (' + host + ')');
  }
  return connect.apply(this, args);
};
`;

interface Compiled {
  snippet: DocSnippet;
  source: string;
  output: string;
  setupLines: number;
}

let workDir: string;
const compiled = new Map<DocSnippet, Compiled>();
let diagnostics: string[] = [];

function label(snippet: DocSnippet): string {
  return `${snippet.file}:${snippet.line}`;
}

function slug(snippet: DocSnippet): string {
  return `${snippet.file.replace(/[^A-Za-z0-9]+/g, '-')}-${snippet.line}`;
}

/** A node_modules where `ideact` is this package (its package.json exports → dist/). */
function linkNodeModules(directory: string): void {
  const modules = path.join(directory, 'node_modules');
  mkdirSync(modules);
  for (const name of readdirSync(path.join(ROOT, 'node_modules'))) {
    if (name.startsWith('.') || name === 'ideact') continue;
    symlinkSync(path.join(ROOT, 'node_modules', name), path.join(modules, name), 'junction');
  }
  symlinkSync(ROOT, path.join(modules, 'ideact'), 'junction');
}

beforeAll(() => {
  if (!existsSync(path.join(ROOT, 'dist', 'index.d.ts'))) {
    throw new Error('dist/ is missing: run "npm run build" (npm test does it first).');
  }
  workDir = mkdtempSync(path.join(os.tmpdir(), 'ideact-snippets-'));
  linkNodeModules(workDir);
  writeFileSync(path.join(workDir, 'no-network.cjs'), NO_NETWORK);
  const sourceDir = path.join(workDir, 'src');
  const outDir = path.join(workDir, 'out');
  mkdirSync(sourceDir);
  // Like an app with "type": "module": a .ts snippet is an ES module, a `cjs` one (.cts) CommonJS.
  writeFileSync(path.join(workDir, 'package.json'), JSON.stringify({ type: 'module' }));
  for (const snippet of CHECKED) {
    const relative =
      snippet.path ?? `${slug(snippet)}.${snippet.moduleKind === 'cjs' ? 'cts' : 'ts'}`;
    const source = path.join(sourceDir, relative);
    const setupLines = snippet.setup === '' ? 0 : snippet.setup.split('\n').length;
    mkdirSync(path.dirname(source), { recursive: true });
    writeFileSync(source, `${snippet.setup === '' ? '' : `${snippet.setup}\n`}${snippet.code}`);
    const output = path.join(outDir, relative.replace(/\.ts$/, '.js').replace(/\.cts$/, '.cjs'));
    compiled.set(snippet, { snippet, source, output, setupLines });
  }
  const program = ts.createProgram(
    [...compiled.values()].map((entry) => entry.source),
    { ...readmeCompilerOptions(), rootDir: sourceDir, outDir },
  );
  const bySource = new Map([...compiled.values()].map((entry) => [entry.source, entry]));
  diagnostics = ts.getPreEmitDiagnostics(program).map((diagnostic) => {
    const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
    const entry =
      diagnostic.file === undefined
        ? undefined
        : bySource.get(path.resolve(diagnostic.file.fileName));
    if (entry === undefined || diagnostic.file === undefined || diagnostic.start === undefined) {
      return `${diagnostic.file?.fileName ?? '(program)'}: TS${diagnostic.code} ${message}`;
    }
    const line = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start).line;
    const where =
      line < entry.setupLines
        ? `${label(entry.snippet)} (setup line ${line + 1})`
        : `${entry.snippet.file}:${entry.snippet.line + 1 + line - entry.setupLines}`;
    return `${where}: TS${diagnostic.code} ${message}`;
  });
  program.emit();
}, 120_000);

afterAll(() => {
  if (workDir !== undefined) rmSync(workDir, { recursive: true, force: true });
});

/** Runs a compiled snippet with node in its own directory; resolves to its exit code and output. */
function runSnippet(entry: Compiled): Promise<{ code: number | null; output: string }> {
  const cwd = path.join(workDir, 'run', slug(entry.snippet));
  mkdirSync(cwd, { recursive: true });
  for (const data of DATA_FILES) {
    mkdirSync(path.dirname(path.join(cwd, data.path!)), { recursive: true });
    writeFileSync(path.join(cwd, data.path!), data.code);
  }
  const env: Record<string, string | undefined> = { ...process.env };
  for (const name of ['OPENAI_API_KEY', 'OPENAI_BASE_URL', 'IDEACT_MODEL', 'DEBUG'])
    delete env[name];
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--require', path.join(workDir, 'no-network.cjs'), entry.output],
      { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], timeout: 30_000 },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

describe('docs snippets (README.md and docs/*.md)', () => {
  it('finds the ts blocks; every skip and compile-only block says why', () => {
    expect(CODE.length).toBeGreaterThan(30);
    const unexplained = SNIPPETS.filter(
      (snippet) => snippet.mode !== 'run' && (snippet.reason ?? '').length < 10,
    ).map(label);
    expect(unexplained).toEqual([]);
    // Skips are for blocks that cannot be compiled at all; keep them rare.
    expect(SNIPPETS.filter((snippet) => snippet.mode === 'skip').length).toBeLessThanOrEqual(2);
  });

  it('a generated file shown in the docs is what `ideact codegen` writes for the Idea shown', () => {
    const generated = CODE.filter((snippet) =>
      snippet.code.startsWith('// Generated by `ideact codegen`'),
    );
    expect(generated.length).toBeGreaterThan(0);
    for (const snippet of generated) {
      const ideaName = /from the Idea (\S+)\. Do not edit/.exec(snippet.code)?.[1];
      const idea = DATA_FILES.find((data) => data.path?.endsWith(`/${ideaName}`));
      if (idea === undefined)
        throw new Error(`${label(snippet)}: no snippet-file block for ${ideaName}`);
      const directory = path.join(workDir, 'codegen', slug(snippet));
      const ideaFile = path.join(directory, idea.path!);
      mkdirSync(path.dirname(ideaFile), { recursive: true });
      writeFileSync(ideaFile, idea.code);
      execFileSync(
        process.execPath,
        [
          path.join(ROOT, 'dist', 'cli', 'main.js'),
          'codegen',
          ideaFile,
          '--out',
          path.join(directory, 'out'),
          '--module-root',
          path.dirname(ideaFile),
        ],
        { cwd: directory, stdio: 'pipe' },
      );
      const written = readFileSync(
        path.join(directory, 'out', path.basename(snippet.path ?? '')),
        'utf8',
      );
      expect(`${label(snippet)}\n${snippet.code}`).toBe(`${label(snippet)}\n${written}`);
    }
  });

  it('every block type-checks against the built package', () => {
    expect(diagnostics).toEqual([]);
  });

  it.each(RUNNABLE.map((snippet) => [label(snippet), snippet] as const))(
    '%s runs to exit 0 (offline, no network)',
    async (_name, snippet) => {
      const result = await runSnippet(compiled.get(snippet)!);
      if (result.code !== 0) {
        throw new Error(`${label(snippet)} exited with ${result.code}:\n${result.output}`);
      }
    },
  );
});
