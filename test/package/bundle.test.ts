import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build, type Metafile } from 'esbuild';
import { installPackedOffline } from './support/offline-install';

/**
 * Issue 29 item 5: the core bundles. `esbuild --bundle --platform=node` of a minimal agent (a Tool,
 * ScriptedProvider, one run) in a project with only the packed core installed succeeds with no
 * warning, and the bundle runs on its own (copied where no node_modules is); the optional packages
 * are left for run time (their requires sit in a `try`), and a project that has an extra gets it
 * in its bundle: a decorated Tool with class-validator, bundled without decorator metadata, runs.
 */
const ROOT = join(__dirname, '..', '..');
const FIXTURES = join(__dirname, 'fixtures', 'bundle');
/** Optional peers the entry can reach: a core-only bundle leaves each for run time. */
const OPTIONAL = [
  'pg',
  '@dbos-inc/dbos-sdk',
  '@modelcontextprotocol/sdk/client/index.js',
  'json-schema-to-typescript',
  'class-validator',
];

let work: string;
let tarball: string;
beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'ideact-bundle-'));
  const packed = execFileSync(
    'npm',
    ['pack', '--ignore-scripts', '--silent', '--pack-destination', work],
    { cwd: ROOT, encoding: 'utf8' },
  ).trim();
  tarball = join(work, packed.split('\n').at(-1) as string);
}, 60_000);
afterAll(() => {
  rmSync(work, { recursive: true, force: true });
});

/** A project with the packed core (and `extras`), the fixture as its entry, bundled by esbuild. */
async function bundle(name: string, entry: string, extras: string[] = []) {
  const app = join(work, name);
  mkdirSync(app);
  copyFileSync(tarball, join(app, 'ideact.tgz'));
  installPackedOffline(app, join(app, 'ideact.tgz'), extras);
  copyFileSync(join(FIXTURES, entry), join(app, entry));
  // The README's compiler flag for ideact's (legacy) decorators, which esbuild reads too.
  writeFileSync(
    join(app, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { experimentalDecorators: true } }),
  );
  const outfile = join(app, 'out', 'bundle.js');
  // What `npx esbuild <entry> --bundle --platform=node --outfile=out/bundle.js` does.
  const result = await build({
    absWorkingDir: app,
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    outfile,
    metafile: true,
    logLevel: 'silent',
  });
  const elsewhere = join(work, `${name}-elsewhere`);
  mkdirSync(elsewhere);
  copyFileSync(outfile, join(elsewhere, 'bundle.js'));
  return {
    result,
    code: readFileSync(outfile, 'utf8'),
    packages: bundledPackages(result.metafile),
    run: () =>
      execFileSync(process.execPath, ['bundle.js'], { cwd: elsewhere, encoding: 'utf8' }).trim(),
  };
}

/** The packages whose files the bundle holds. */
function bundledPackages(metafile: Metafile): string[] {
  const names = new Set<string>();
  for (const file of Object.keys(metafile.inputs)) {
    const match = /node_modules\/((@[^/]+\/)?[^/]+)/.exec(file);
    if (match !== null) names.add(match[1] as string);
  }
  return [...names].sort();
}

describe('bundling an agent with esbuild (issue 29 item 5)', () => {
  it('the core alone: no error, no warning; the bundle runs without node_modules; the extras stay optional requires', async () => {
    const core = await bundle('core', 'minimal-agent.ts');
    expect(core.result.errors).toEqual([]);
    expect(core.result.warnings).toEqual([]);
    expect(core.run()).toBe('output "done"');
    expect(core.packages).toContain('ideact');
    for (const name of OPTIONAL) {
      expect(core.packages).not.toContain(
        name
          .split('/')
          .slice(0, name.startsWith('@') ? 2 : 1)
          .join('/'),
      );
      expect(core.code).toContain(`require("${name}")`);
    }
  }, 120_000);

  it('with the class-Tool extra installed, a decorated Tool bundles with class-validator and runs without metadata', async () => {
    const decorated = await bundle('decorated', 'decorated-agent.ts', [
      'class-validator',
      'class-transformer',
      'class-validator-jsonschema',
    ]);
    expect(decorated.result.errors).toEqual([]);
    expect(decorated.result.warnings).toEqual([]);
    expect(decorated.packages).toEqual(
      expect.arrayContaining([
        'class-transformer',
        'class-validator',
        'class-validator-jsonschema',
      ]),
    );
    expect(decorated.run()).toBe('output "done" HI');
  }, 120_000);
});
