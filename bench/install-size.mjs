/**
 * Install size and cold start (issue 29 item 4): each subject installed the way a user installs it —
 * a fresh folder, `npm init -y`, `npm i <spec> --omit=dev` — then the size of its node_modules, its
 * package count, and the cold `require` / `import` of its entry in fresh processes, over bare node.
 *
 *   npm run build && node bench/install-size.mjs [--before <ref>]... [--runs N]
 *
 * Subjects: the working tree's packed tarball (the core alone, and with every extra), the packed
 * build of `--before` (bench:compare's cached build of that commit), and the peers `ai`,
 * `@openai/agents`, `@langchain/langgraph` and `@mastra/core` at the versions npm resolves today.
 * Installs use the registry (this is a benchmark, not a test); timings interleave the subjects round
 * by round and report medians.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { refTarball, resolveRef, workingTreeTarball } from './lib/compare-build.mjs';
import { median } from './lib/stats.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const HOME = path.join(os.tmpdir(), 'ideact-bench-install');
const args = process.argv.slice(2);
const option = (name) => {
  const index = args.indexOf(name);
  return index < 0 ? undefined : args[index + 1];
};
const RUNS = Number(option('--runs') ?? 15);
/** Every `--before <ref>` given (repeatable): earlier builds to install next to this tree's. */
const BEFORE = args.flatMap((arg, index) => (arg === '--before' ? [args[index + 1]] : []));
const say = (text) => process.stderr.write(`${text}\n`);

/** The optional peers, at the ranges this repository's devDependencies test with. */
const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
const EXTRAS = Object.keys(manifest.peerDependencies ?? {}).map(
  (name) => `${name}@${manifest.devDependencies[name] ?? manifest.peerDependencies[name]}`,
);

function npm(cwd, commandArgs) {
  const result = spawnSync('npm', [...commandArgs, '--no-audit', '--no-fund'], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, npm_config_loglevel: 'error' },
  });
  if (result.status !== 0) {
    throw new Error(`npm ${commandArgs.join(' ')} in ${cwd} failed:\n${result.stderr}`);
  }
  return result.stdout;
}

/**
 * Everything under `folder`: `bytes`, the files' sizes (what `du -sb` counts), and `disk`, the blocks
 * they take (what `du -s` counts: each small file takes at least one 4 KB block).
 */
function sizeUnder(folder) {
  const total = { bytes: 0, disk: 0 };
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const full = path.join(folder, entry.name);
    if (entry.isSymbolicLink()) continue;
    if (entry.isDirectory()) {
      const inner = sizeUnder(full);
      total.bytes += inner.bytes;
      total.disk += inner.disk;
    } else {
      const stats = statSync(full);
      total.bytes += stats.size;
      total.disk += stats.blocks * 512;
    }
  }
  return total;
}

/** Installed packages: every folder under node_modules (nested too) that holds a package.json. */
function packagesUnder(modules) {
  let count = 0;
  for (const entry of readdirSync(modules, { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name.startsWith('.')) continue;
    const folders = entry.name.startsWith('@')
      ? readdirSync(path.join(modules, entry.name)).map((name) => path.join(entry.name, name))
      : [entry.name];
    for (const name of folders) {
      const folder = path.join(modules, name);
      if (!existsSync(path.join(folder, 'package.json'))) continue;
      count += 1;
      const nested = path.join(folder, 'node_modules');
      if (existsSync(nested)) count += packagesUnder(nested);
    }
  }
  return count;
}

/** Installs `specs` into a fresh folder named `name`; returns its size, package count and folder. */
function install(name, specs) {
  const folder = path.join(HOME, name);
  rmSync(folder, { recursive: true, force: true });
  mkdirSync(folder, { recursive: true });
  npm(folder, ['init', '-y']);
  say(
    `installing ${name}: npm i ${specs.map((spec) => (spec.endsWith('.tgz') ? path.basename(spec) : spec)).join(' ')} --omit=dev`,
  );
  npm(folder, ['i', ...specs, '--omit=dev']);
  const modules = path.join(folder, 'node_modules');
  return { name, folder, ...sizeUnder(modules), packages: packagesUnder(modules) };
}

function version(folder, packageName) {
  const file = path.join(folder, 'node_modules', packageName, 'package.json');
  return JSON.parse(readFileSync(file, 'utf8')).version;
}

/**
 * One cold start in a fresh process: wall time of `node <script>` (spawn to exit) and the RSS the
 * child reports at its end. `script` is CommonJS (`-e`) or an ES module (`--input-type=module`).
 */
function coldStart(folder, script, kind) {
  const code = `${script};process.stdout.write(String(process.memoryUsage().rss))`;
  const argv = kind === 'esm' ? ['--input-type=module', '-e', code] : ['-e', code];
  const started = process.hrtime.bigint();
  const result = spawnSync(process.execPath, argv, { cwd: folder, encoding: 'utf8' });
  const elapsed = Number(process.hrtime.bigint() - started) / 1e6;
  if (result.status !== 0) throw new Error(`${script} in ${folder} failed:\n${result.stderr}`);
  return { ms: elapsed, rss: Number(result.stdout) };
}

const mb = (bytes) => (bytes / 1e6).toFixed(1);

mkdirSync(HOME, { recursive: true });
const built = workingTreeTarball(ROOT, path.join(HOME, 'pack'), say);
const subjects = [
  { ...install('ideact-core', [built]), entry: 'ideact', label: 'ideact (this tree), core' },
  {
    ...install('ideact-extras', [built, ...EXTRAS]),
    entry: 'ideact',
    label: 'ideact (this tree), every extra',
  },
];
for (const ref of BEFORE) {
  const { commit } = resolveRef(ROOT, ref);
  const { tarball } = refTarball(ROOT, commit, say);
  subjects.push({
    ...install(`ideact-${commit.slice(0, 7)}`, [tarball]),
    entry: 'ideact',
    label: `ideact ${commit.slice(0, 7)} (before)`,
  });
}
for (const peer of ['ai', '@openai/agents', '@langchain/langgraph', '@mastra/core']) {
  const installed = install(peer.replace('@', '').replace('/', '-'), [peer]);
  subjects.push({ ...installed, entry: peer, label: `${peer} ${version(installed.folder, peer)}` });
}

// Cold starts, interleaved round by round: bare node, then each subject's require and import.
const bare = { cjs: [], esm: [] };
const timings = new Map(subjects.map((subject) => [subject.name, { cjs: [], esm: [] }]));
for (let round = 0; round < RUNS + 1; round += 1) {
  const keep = round > 0; // the first round warms the file cache
  for (const kind of ['cjs', 'esm']) {
    const floor = coldStart(HOME, kind === 'esm' ? 'void 0' : 'void 0', kind);
    if (keep) bare[kind].push(floor);
    for (const subject of subjects) {
      const script =
        kind === 'esm'
          ? `await import(${JSON.stringify(subject.entry)})`
          : `require(${JSON.stringify(subject.entry)})`;
      try {
        const sample = coldStart(subject.folder, script, kind);
        if (keep) timings.get(subject.name)[kind].push(sample);
      } catch {
        timings.get(subject.name)[kind] = undefined; // e.g. an ESM-only package has no require
      }
    }
  }
}

const over = (samples, kind, field) =>
  samples === undefined
    ? '—'
    : (median(samples.map((sample) => sample[field])) -
        median(bare[kind].map((sample) => sample[field]))) /
      (field === 'rss' ? 1e6 : 1);

const lines = [
  `Node ${process.version}, ${os.cpus().length} cores, load average ${os.loadavg()[0].toFixed(2)}; cold starts: median of ${RUNS} fresh processes each (bare node: require ${median(bare.cjs.map((s) => s.ms)).toFixed(1)} ms, ${mb(median(bare.cjs.map((s) => s.rss)))} MB RSS)`,
  '',
  '| installed with `npm i … --omit=dev` | size (MB, files) | on disk (MB, `du -s`) | packages | cold `require` over bare node (ms) | cold `import` over bare node (ms) | RSS over bare node after `import` (MB) |',
  '| --- | --- | --- | --- | --- | --- | --- |',
];
for (const subject of subjects) {
  const timing = timings.get(subject.name);
  const format = (value, digits) => (typeof value === 'number' ? value.toFixed(digits) : value);
  lines.push(
    `| ${subject.label} | ${mb(subject.bytes)} | ${mb(subject.disk)} | ${subject.packages} | ${format(over(timing.cjs, 'cjs', 'ms'), 1)} | ${format(over(timing.esm, 'esm', 'ms'), 1)} | ${format(over(timing.esm, 'esm', 'rss'), 1)} |`,
  );
}
process.stdout.write(`${lines.join('\n')}\n`);
