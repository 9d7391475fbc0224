import { execFileSync, spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { installPackedOffline } from '../package/support/offline-install';
import { extractSnippets } from '../support/doc-snippets';

/**
 * Issue 29 ("done when"): the README's "Install in your app" works verbatim with tsx as well as with
 * tsc. A project laid out as the README says: the packed ideact installed with the packages of the
 * README's own `npm i` line (offline, at the versions they resolve to today, nothing else of this
 * repository's node_modules), its tsconfig.json, and the two `main.ts` files of "A first agent" (an ES
 * module package and a CommonJS one); each runs with `npx tsx main.ts` — the container starts without
 * decorator metadata — and with `npx tsc && node dist/main.js`. (A decorated Tool and an injected
 * service under tsx, esbuild and SWC: test/decorators/toolchains.test.ts.)
 */
const ROOT = path.resolve(__dirname, '..', '..');
const README = readFileSync(path.join(ROOT, 'README.md'), 'utf8');

function section(heading: string): string {
  const start = README.indexOf(`\n## ${heading}\n`);
  if (start < 0) throw new Error(`README.md: no "## ${heading}" section`);
  const end = README.indexOf('\n## ', start + 1);
  return README.slice(start, end < 0 ? undefined : end);
}

const INSTALL = section('Install in your app');
const TSCONFIG = /```json\n([\s\S]*?)\n```/.exec(INSTALL)?.[1];
/** The packages of the README's `npm i ideact …` line (the runtime ones, not `npm i -D`). */
const INSTALLED = (/^npm i (ideact [^\n#]*)$/m.exec(INSTALL)?.[1] ?? '').trim().split(/\s+/);
/** The README's `npm i -D` line: the dev tools, linked from this repository. */
const DEV_TOOLS = ['typescript', '@types/node', 'tsx'];
const FIRST_AGENT = extractSnippets(section('A first agent'), 'README.md').filter(
  (snippet) => snippet.language === 'ts',
);

let root: string;
beforeAll(() => {
  if (!existsSync(path.join(ROOT, 'dist', 'index.js'))) {
    throw new Error('dist/ is missing: run "npm run build" (npm test does it first).');
  }
  root = mkdtempSync(path.join(os.tmpdir(), 'ideact-readme-tsx-'));
  const packed = execFileSync(
    'npm',
    ['pack', '--ignore-scripts', '--silent', '--pack-destination', root],
    {
      cwd: ROOT,
      encoding: 'utf8',
    },
  ).trim();
  installPackedOffline(
    root,
    path.join(root, packed.split('\n').at(-1) as string),
    INSTALLED.filter((name) => name !== 'ideact'),
  );
  for (const tool of DEV_TOOLS) {
    mkdirSync(path.dirname(path.join(root, 'node_modules', tool)), { recursive: true });
    symlinkSync(
      path.join(ROOT, 'node_modules', tool),
      path.join(root, 'node_modules', tool),
      'junction',
    );
  }
}, 120_000);
afterAll(() => {
  if (root !== undefined) rmSync(root, { recursive: true, force: true });
});

/** A package of the project (its own package.json `type`, tsconfig.json and main.ts). */
function project(name: string, type: 'module' | 'commonjs', code: string): string {
  const dir = path.join(root, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name, type }));
  writeFileSync(path.join(dir, 'tsconfig.json'), TSCONFIG ?? '');
  writeFileSync(path.join(dir, 'main.ts'), code);
  return dir;
}

function cleanEnvironment(): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = { ...process.env };
  for (const variable of ['OPENAI_API_KEY', 'OPENAI_BASE_URL', 'IDEACT_MODEL', 'DEBUG'])
    delete env[variable];
  return env;
}

describe('README "Install in your app" and "A first agent", verbatim (issue 29)', () => {
  it('finds the install line, the tsconfig.json and the two main.ts files', () => {
    expect(INSTALLED).toEqual(
      expect.arrayContaining(['ideact', 'reflect-metadata', 'class-validator']),
    );
    expect(TSCONFIG).toContain('"experimentalDecorators": true');
    expect(FIRST_AGENT.map((snippet) => snippet.moduleKind)).toEqual(['esm', 'cjs']);
  });

  it.each([
    ['an ES module package', 'module', 0],
    ['a CommonJS package', 'commonjs', 1],
  ] as const)(
    '`npx tsx main.ts` and `npx tsc && node dist/main.js` run the agent in %s',
    (_name, type, index) => {
      const dir = project(type, type, FIRST_AGENT[index]!.code);
      const env = cleanEnvironment();
      // `npx tsx` runs node_modules/.bin/tsx, that is tsx's cli.mjs.
      const tsx = spawnSync(
        process.execPath,
        [path.join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs'), 'main.ts'],
        { cwd: dir, env, encoding: 'utf8', timeout: 60_000 },
      );
      expect(tsx.stderr).toBe('');
      expect(tsx.status).toBe(0);
      // The offline provider answers at once with a placeholder output (it calls no Tool): the run
      // ends with reason `output`. Before issue 29, createAgent stopped here with a DecoratorError.
      expect(tsx.stdout).toBe('output offline\n');
      expect(existsSync(path.join(dir, 'runs', 'oslo.json'))).toBe(true);
      rmSync(path.join(dir, 'runs'), { recursive: true, force: true });

      const tsc = spawnSync(
        process.execPath,
        [path.join(root, 'node_modules', 'typescript', 'bin', 'tsc')],
        { cwd: dir, env, encoding: 'utf8', timeout: 60_000 },
      );
      expect(tsc.stdout).toBe('');
      expect(tsc.status).toBe(0);
      const compiled = spawnSync(process.execPath, [path.join('dist', 'main.js')], {
        cwd: dir,
        env,
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(compiled.stderr).toBe('');
      expect(compiled.stdout).toBe('output offline\n');
      expect(existsSync(path.join(dir, 'runs', 'oslo.json'))).toBe(true);
    },
  );
});
