/**
 * Summarises V8 CPU profiles (from `BENCH_PROFILE=1 npm run bench`, in <tmpdir>/ideact-bench-profiles/): the
 * functions with the most self time and the most inclusive time, so ideact's owners see where a
 * workload's time goes. Usage: `node bench/profile-summary.mjs [file.cpuprofile …] [--filter=dist/]
 * [--per=<n>] [--group]`: `--per=60000` divides every figure by 60,000 (e.g. turns) and prints µs per
 * unit; `--group` adds the self time per owner (ideact's dist/, each package, node, GC).
 */
import { readFileSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const BENCH = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(BENCH, '..');
const TOP = Number(process.env.PROFILE_TOP) || 15;

function shortUrl(url) {
  if (!url) return '(native)';
  const clean = url.replace(/^file:\/\//, '');
  if (clean.startsWith(ROOT)) return path.relative(ROOT, clean);
  if (clean.includes('/node_modules/')) return clean.replace(/.*node_modules\//, 'node_modules/');
  // Another tree of the repository (a `git archive` of an older commit): dist/… or bench/….
  return clean.replace(/^.*?\/(dist|bench)\//, '$1/');
}

/** Who a frame's self time belongs to: ideact's dist/ (of any tree), a package, node, or the GC. */
function owner(node) {
  const url = node.callFrame.url;
  const packages = [...url.matchAll(/\/node_modules\/((?:@[^/]+\/)?[^/]+)/g)];
  if (packages.length > 0) return packages[packages.length - 1][1];
  if (/\/dist\//.test(url)) return 'ideact dist/';
  if (/\/bench\//.test(url)) return 'bench';
  if (node.callFrame.functionName === '(garbage collector)') return '(garbage collector)';
  if (url.startsWith('node:'))
    return `node:${url.replace(/^node:(internal\/)?/, '').split('/')[0]}`;
  return '(native, program)';
}

function summarise(file, filter, per, group) {
  const profile = JSON.parse(readFileSync(file, 'utf8'));
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map();
  profile.samples.forEach((id, index) => {
    self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0) / 1000);
  });
  const parent = new Map();
  for (const node of profile.nodes)
    for (const child of node.children ?? []) parent.set(child, node.id);
  const key = (node) =>
    `${node.callFrame.functionName || '(anonymous)'}  ${shortUrl(node.callFrame.url)}:${node.callFrame.lineNumber + 1}`;
  const selfByKey = new Map();
  const inclusiveByKey = new Map();
  const selfByOwner = new Map();
  let total = 0;
  for (const [id, ms] of self) {
    total += ms;
    const node = byId.get(id);
    selfByOwner.set(owner(node), (selfByOwner.get(owner(node)) ?? 0) + ms);
    selfByKey.set(key(node), (selfByKey.get(key(node)) ?? 0) + ms);
    // Inclusive: credit every distinct function on the stack once.
    const seen = new Set();
    for (let current = id; current !== undefined; current = parent.get(current)) {
      const frameKey = key(byId.get(current));
      if (seen.has(frameKey)) continue;
      seen.add(frameKey);
      inclusiveByKey.set(frameKey, (inclusiveByKey.get(frameKey) ?? 0) + ms);
    }
  }
  const pick = (map) =>
    [...map.entries()]
      .filter(([name]) => !filter || name.includes(filter))
      .sort((left, right) => right[1] - left[1])
      .slice(0, TOP);
  const unit = per ? 'µs' : 'ms';
  const show = (ms) => (per ? ((ms * 1000) / per).toFixed(2) : ms.toFixed(1)).padStart(8);
  process.stdout.write(
    `\n## ${path.basename(file)} — ${show(total).trim()} ${unit} sampled` +
      (per ? ` (every figure ÷ ${per})\n` : '\n'),
  );
  if (group) {
    process.stdout.write('\nself time by owner:\n');
    for (const [name, ms] of [...selfByOwner.entries()].sort((left, right) => right[1] - left[1]))
      process.stdout.write(`  ${show(ms)} ${unit}  ${name}\n`);
  }
  process.stdout.write(`\nself time${filter ? ` (frames matching ${filter})` : ''}:\n`);
  for (const [name, ms] of pick(selfByKey))
    process.stdout.write(`  ${show(ms)} ${unit}  ${name}\n`);
  process.stdout.write(`\ninclusive time${filter ? ` (frames matching ${filter})` : ''}:\n`);
  for (const [name, ms] of pick(inclusiveByKey))
    process.stdout.write(`  ${show(ms)} ${unit}  ${name}\n`);
}

// Piping into `head` closes stdout early; that is not an error.
process.stdout.on('error', (error) => {
  if (error.code !== 'EPIPE') throw error;
  process.exit(0);
});

const args = process.argv.slice(2);
const filterArgument = args.find((argument) => argument.startsWith('--filter='));
const filter = filterArgument ? filterArgument.slice('--filter='.length) : undefined;
const perArgument = args.find((argument) => argument.startsWith('--per='));
const per = perArgument ? Number(perArgument.slice('--per='.length)) || undefined : undefined;
const group = args.includes('--group');
let files = args.filter((argument) => !argument.startsWith('--'));
if (files.length === 0) {
  const directory = path.join(os.tmpdir(), 'ideact-bench-profiles');
  files = readdirSync(directory)
    .filter((name) => name.endsWith('.cpuprofile'))
    .map((name) => path.join(directory, name));
}
for (const file of files) summarise(file, filter, per, group);
