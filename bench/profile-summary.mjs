/**
 * Summarises V8 CPU profiles (from `BENCH_PROFILE=1 npm run bench`, in <tmpdir>/ideact-bench-profiles/): the
 * functions with the most self time and the most inclusive time, so ideact's owners see where a
 * workload's time goes. Usage: `node bench/profile-summary.mjs [file.cpuprofile …] [--filter=dist/]`.
 */
import { readFileSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const BENCH = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(BENCH, '..');
const TOP = 15;

function shortUrl(url) {
  if (!url) return '(native)';
  const clean = url.replace(/^file:\/\//, '');
  return clean.startsWith(ROOT)
    ? path.relative(ROOT, clean)
    : clean.replace(/.*node_modules\//, 'node_modules/');
}

function summarise(file, filter) {
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
  let total = 0;
  for (const [id, ms] of self) {
    total += ms;
    const node = byId.get(id);
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
  process.stdout.write(`\n## ${path.basename(file)} — ${total.toFixed(0)} ms sampled\n`);
  process.stdout.write(`\nself time${filter ? ` (frames matching ${filter})` : ''}:\n`);
  for (const [name, ms] of pick(selfByKey))
    process.stdout.write(`  ${ms.toFixed(1).padStart(8)} ms  ${name}\n`);
  process.stdout.write(`\ninclusive time${filter ? ` (frames matching ${filter})` : ''}:\n`);
  for (const [name, ms] of pick(inclusiveByKey))
    process.stdout.write(`  ${ms.toFixed(1).padStart(8)} ms  ${name}\n`);
}

// Piping into `head` closes stdout early; that is not an error.
process.stdout.on('error', (error) => {
  if (error.code !== 'EPIPE') throw error;
  process.exit(0);
});

const args = process.argv.slice(2);
const filterArgument = args.find((argument) => argument.startsWith('--filter='));
const filter = filterArgument ? filterArgument.slice('--filter='.length) : undefined;
let files = args.filter((argument) => !argument.startsWith('--'));
if (files.length === 0) {
  const directory = path.join(os.tmpdir(), 'ideact-bench-profiles');
  files = readdirSync(directory)
    .filter((name) => name.endsWith('.cpuprofile'))
    .map((name) => path.join(directory, name));
}
for (const file of files) summarise(file, filter);
