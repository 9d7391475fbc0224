/**
 * Bytes allocated per W1 turn or per W2 Call by the ideact adapter, and where (issue 28): V8's sampling
 * heap profiler with the objects the GC already collected included, over `runs` runs after 3 warm-up
 * runs. Usage: `node bench/allocation-profile.mjs <w1|w1-scripted|w2> [runs=5] [top=25]` after `npm run build`
 * (or with IDEACT_BENCH_PACKAGE=<app>/node_modules/ideact for an installed build). A native frame
 * (an array's `push`, `new Promise`) is named after the JS function that called it.
 */
import { Session } from 'node:inspector/promises';

const [workload = 'w1', runsArgument = '5', topArgument = '25'] = process.argv.slice(2);
const WORKLOADS = {
  w1: { unit: 'turn', perRun: 200, run: (adapter) => adapter.toolLoop({ turns: 200 }) },
  w2: { unit: 'Call', perRun: 100, run: (adapter) => adapter.parallelCalls({ calls: 100 }) },
  'w1-scripted': {
    unit: 'turn',
    perRun: 200,
    features: ['scripted'],
    run: (adapter) => adapter.toolLoop({ turns: 200 }),
  },
};
const chosen = WORKLOADS[workload];
if (chosen === undefined) {
  process.stderr.write(`unknown workload ${workload}; expected w1, w1-scripted or w2\n`);
  process.exit(2);
}
const runs = Math.max(1, Number(runsArgument) || 5);
const adapter = await import('./frameworks/ideact.mjs');
const unavailable = adapter.configure(chosen.features ?? []);
if (unavailable) {
  process.stderr.write(`${unavailable}\n`);
  process.exit(2);
}
for (let index = 0; index < 3; index++) await chosen.run(adapter);

const session = new Session();
session.connect();
await session.post('HeapProfiler.enable');
await session.post('HeapProfiler.startSampling', {
  samplingInterval: 128,
  includeObjectsCollectedByMajorGC: true,
  includeObjectsCollectedByMinorGC: true,
});
for (let index = 0; index < runs; index++) await chosen.run(adapter);
const { profile } = await session.post('HeapProfiler.stopSampling');
session.disconnect();

const units = runs * chosen.perRun;
const bySite = new Map();
let total = 0;
const shortUrl = (url) =>
  url.replace(/^file:\/\//, '').replace(/.*\/(dist|node_modules|bench)\//, '$1/');
function walk(node, caller) {
  const frame = node.callFrame;
  const own = `${frame.functionName || '(anonymous)'} ${shortUrl(frame.url)}:${frame.lineNumber + 1}`;
  const name = frame.url ? own : `${frame.functionName || '(native)'} ← ${caller}`;
  total += node.selfSize;
  bySite.set(name, (bySite.get(name) ?? 0) + node.selfSize);
  for (const child of node.children) walk(child, frame.url ? own : caller);
}
walk(profile.head, '(root)');

process.stdout.write(
  `${workload}: ${Math.round(total / units)} bytes allocated per ${chosen.unit} ` +
    `(${runs} runs after 3 warm-ups, sampled every 128 bytes)\n`,
);
const top = [...bySite].sort((left, right) => right[1] - left[1]).slice(0, Number(topArgument));
for (const [site, bytes] of top) {
  process.stdout.write(`${String(Math.round(bytes / units)).padStart(8)}  ${site}\n`);
}
