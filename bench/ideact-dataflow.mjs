/**
 * Issue 17 benchmark: a dataflow Vessel (R-FLOW-1). Five Calls form a diamond: A; B and C read A's
 * output; D reads B && C; E is independent. Every Activity waits 50 ms, so the critical path
 * (A → B → D) is 150 ms. ideact starts each Call once its inputs exist; the baseline runs the same
 * Calls one after another in the order written (`actorConcurrency: 1`), 5 × 50 = 250 ms.
 *
 *   npm run build && node bench/ideact-dataflow.mjs            (BENCH_RUNS=9 by default)
 */
import { loadIdeact } from './lib/ideact-package.mjs';
import { median, formatNumber } from './lib/stats.mjs';
import { createRequire } from 'node:module';
import { setTimeout as delay } from 'node:timers/promises';
import path from 'node:path';
import { ROOT } from './lib/ideact-package.mjs';

const ideact = loadIdeact();
if (ideact.loadError) {
  console.error(ideact.loadError);
  process.exit(1);
}
const { ScriptedProvider } = createRequire(import.meta.url)(
  path.join(ROOT, 'dist', 'testing', 'index.js'),
);
const { Agent, Executor, Toolkit } = ideact;
const RUNS = Number(process.env.BENCH_RUNS ?? 9);
const STEP_MS = 50;

const stepTool = {
  type: 'object',
  properties: {
    _tool: { const: 'step' },
    name: { type: 'string' },
    input: {},
    _outputPath: { type: 'string' },
  },
  required: ['_tool', 'name'],
};
const diamond = [
  { _tool: 'step', name: 'A', _outputPath: '†state.a' },
  { _tool: 'step', name: 'B', input: '†state.a', _outputPath: '†state.b' },
  { _tool: 'step', name: 'C', input: '†state.a', _outputPath: '†state.c' },
  { _tool: 'step', name: 'D', input: '†state.b && †state.c', _outputPath: '†state.d' },
  { _tool: 'step', name: 'E' },
];

/** Wall time of the Actor step (the Calls), in ms, read from the run's events. */
async function once(config) {
  const provider = new ScriptedProvider([
    { calls: diamond, output: null },
    { calls: [], output: 'done' },
  ]);
  const tools = [stepTool];
  const executor = new Executor({
    provider,
    tools,
    activities: [
      {
        step: async (params) => {
          await delay(STEP_MS);
          return { name: params.name };
        },
      },
    ],
  });
  const agent = new Agent({ provider, toolkit: new Toolkit({ tools }), executor }, config);
  const run = agent.start({ task: 'Run the plan.' });
  let first;
  let last;
  run.subscribe(
    (event) => {
      if (event.type === 'call-start') first ??= event.time;
      if (event.type === 'call-end') last = event.time;
    },
    { deltas: false },
  );
  const result = await run.result();
  if (result.stopReason !== 'output' || result.failedCalls.length > 0) {
    throw new Error(`the run did not finish cleanly: ${result.stopReason}`);
  }
  return last - first;
}

async function measure(label, config) {
  await once(config); // warm-up
  const samples = [];
  for (let index = 0; index < RUNS; index++) samples.push(await once(config));
  return { label, median: median(samples), min: Math.min(...samples), max: Math.max(...samples) };
}

const rows = [
  await measure('ideact dataflow (default)', {}),
  await measure('written order, one at a time (actorConcurrency: 1)', { actorConcurrency: 1 }),
];
console.log(
  `diamond Vessel, 5 Calls of ${STEP_MS} ms, critical path ${3 * STEP_MS} ms, ${RUNS} runs, Node ${process.version}`,
);
for (const row of rows) {
  console.log(
    `${row.label.padEnd(52)} median ${formatNumber(row.median)} ms (min ${formatNumber(row.min)}, max ${formatNumber(row.max)}), ${formatNumber(row.median / (3 * STEP_MS))} × critical path`,
  );
}
