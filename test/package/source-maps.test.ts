import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';

/**
 * Issue 27 item 11: the package's source maps point at files the package ships (its `src/`), so a
 * user's stack trace under `node --enable-source-maps` names a file they have. The test packs the
 * package (`npm pack`, as published; `npm test` builds dist/ first) and reads the tarball's files.
 */
const ROOT = join(__dirname, '..', '..');

let temporary: string;
let packageDir: string;

beforeAll(() => {
  if (!existsSync(join(ROOT, 'dist', 'index.js')))
    throw new Error('dist/ is missing: run "npm run build" (npm test does).');
  temporary = mkdtempSync(join(tmpdir(), 'ideact-pack-'));
  const output = execFileSync(
    'npm',
    ['pack', '--ignore-scripts', '--json', '--pack-destination', temporary],
    { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] },
  );
  const [manifest] = JSON.parse(output) as Array<{ filename: string }>;
  execFileSync('tar', ['-xzf', join(temporary, manifest!.filename), '-C', temporary]);
  packageDir = join(temporary, 'package');
}, 120_000);

afterAll(() => {
  if (temporary !== undefined) rmSync(temporary, { recursive: true, force: true });
});

/** Every file under `directory`, recursively. */
function filesUnder(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const full = join(directory, entry.name);
    return entry.isDirectory() ? filesUnder(full) : [full];
  });
}

function isInside(file: string, directory: string): boolean {
  const path = relative(directory, file);
  return path !== '' && !path.startsWith('..') && !path.startsWith(sep);
}

describe('the packed package’s source maps (issue 27 item 11)', () => {
  it('every `sources` entry of every dist/**/*.js.map resolves to a file in the tarball', () => {
    const distFiles = filesUnder(join(packageDir, 'dist'));
    const maps = distFiles.filter((file) => file.endsWith('.map'));
    const mappedScripts = distFiles.filter(
      (file) =>
        (file.endsWith('.js') || file.endsWith('.d.ts')) &&
        readFileSync(file, 'utf8').includes('\n//# sourceMappingURL='),
    );
    // every map a compiled file names is in the tarball (and there are many of them)
    expect(mappedScripts.length).toBeGreaterThan(100);
    // No declaration maps: 436 files (1.8 MB on disk) kept the core over 40 MB (issue 29 item 4).
    expect(distFiles.filter((file) => file.endsWith('.d.ts.map'))).toEqual([]);
    for (const script of mappedScripts) {
      const url = /\n\/\/# sourceMappingURL=(\S+)\s*$/.exec(readFileSync(script, 'utf8'))![1]!;
      expect(existsSync(resolve(dirname(script), url))).toBe(true);
    }
    const unresolved: string[] = [];
    for (const map of maps) {
      const content = JSON.parse(readFileSync(map, 'utf8')) as {
        sources: string[];
        sourceRoot?: string;
      };
      expect(content.sources.length).toBeGreaterThan(0);
      for (const source of content.sources) {
        const target = resolve(dirname(map), content.sourceRoot ?? '', source);
        if (!isInside(target, packageDir) || !existsSync(target)) {
          unresolved.push(`${relative(packageDir, map)} → ${source}`);
        }
      }
    }
    expect(maps.length).toBe(mappedScripts.length);
    expect(unresolved).toEqual([]);
  });

  it('a DecoratorError’s stack under node --enable-source-maps names .ts files the package has', () => {
    // A plain-JavaScript user of the installed package: @Module('') on a class, without decorator syntax.
    const script = `
      const { Module, DecoratorError } = require(${JSON.stringify(join(packageDir, 'dist', 'index.js'))});
      try {
        Module('')(class Composer {});
      } catch (error) {
        if (!DecoratorError.isInstance(error)) throw error;
        process.stdout.write(error.stack);
      }`;
    const stack = execFileSync(process.execPath, ['--enable-source-maps', '-e', script], {
      cwd: temporary,
      encoding: 'utf8',
      // the packed package has no node_modules of its own: its dependencies come from this repository's
      env: { ...process.env, NODE_PATH: join(ROOT, 'node_modules') },
    });
    expect(stack).toMatch(/^DecoratorError: @Module on Composer/);
    const frames = [...stack.matchAll(/\(?(\/[^\s()]+):\d+:\d+\)?$/gm)].map((match) => match[1]!);
    const inPackage = frames.filter((file) => isInside(file, packageDir));
    expect(inPackage.length).toBeGreaterThan(0);
    // mapped back to the TypeScript sources, which the package ships
    expect(inPackage.some((file) => file.startsWith(join(packageDir, 'src', 'decorators')))).toBe(
      true,
    );
    for (const file of inPackage) {
      expect(file.endsWith('.ts')).toBe(true);
      expect(existsSync(file)).toBe(true);
    }
  });
});
