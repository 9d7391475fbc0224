/**
 * W13 (issue 16, memory): `node --expose-gc bench/ideact-memory.mjs [iterations]` makes
 * `iterations` (default 10,000) agents in a loop in one process, each `createAgent(...)` with a fresh
 * `ScriptedProvider` (from 'ideact/testing'; one turn with one Call, then the answer) followed by
 * `agent.run(...)`, and never disposes them. Every 1,000 iterations it runs `globalThis.gc()` and records
 * the heap used; the figure is the growth between the 1,000th and the last. Prints one
 * `BENCH_RESULT <json>` line.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { ROOT, loadIdeact, missingExports } from './lib/ideact-package.mjs';

const DEFAULT_ITERATIONS = 10_000;
const CHECKPOINT_EVERY = 1_000;
const MB = 1024 * 1024;

function emit(result) {
  process.stdout.write(`BENCH_RESULT ${JSON.stringify(result)}\n`);
}

const LOOKUP_TOOL = {
  type: 'object',
  description: 'Looks a key up in a small in-memory table.',
  properties: { _tool: { const: 'lookup' }, key: { type: 'string' } },
  required: ['_tool', 'key'],
  additionalProperties: false,
};

/** Heap used after full collections (twice: finalizers and weak references settle on the second). */
function collectedHeap() {
  globalThis.gc();
  globalThis.gc();
  const usage = process.memoryUsage();
  return {
    heapUsedMb: usage.heapUsed / MB,
    externalMb: usage.external / MB,
    rssMb: usage.rss / MB,
  };
}

async function main() {
  const reason = missingExports(['createAgent']);
  if (reason) return emit({ workload: 'w13', framework: 'ideact', unavailable: reason });
  if (typeof globalThis.gc !== 'function') {
    return emit({
      workload: 'w13',
      framework: 'ideact',
      unavailable: 'globalThis.gc is missing: run with node --expose-gc',
    });
  }
  const iterations = Math.max(
    CHECKPOINT_EVERY,
    Number(process.argv[2] ?? DEFAULT_ITERATIONS) || DEFAULT_ITERATIONS,
  );
  const { createAgent } = loadIdeact();
  const { ScriptedProvider } = createRequire(path.join(ROOT, 'package.json'))('ideact/testing');
  const checkpoints = [];
  const started = performance.now();
  let lapStarted = started;
  for (let iteration = 1; iteration <= iterations; iteration++) {
    const provider = new ScriptedProvider([
      { calls: [{ _tool: 'lookup', key: `k${iteration}` }], output: null },
      { calls: [], output: `done ${iteration}` },
    ]);
    const agent = createAgent({
      tools: [LOOKUP_TOOL],
      activities: [{ lookup: ({ key }) => ({ key, value: `value-of-${key}` }) }],
      provider,
    });
    const result = await agent.run({
      task: `Look k${iteration} up.`,
      output: { type: 'string' },
      maxTurns: 5,
    });
    if (result.output !== `done ${iteration}`) {
      throw new Error(`W13: iteration ${iteration} returned ${JSON.stringify(result.output)}`);
    }
    if (iteration % CHECKPOINT_EVERY === 0) {
      const lapMs = performance.now() - lapStarted;
      checkpoints.push({ iteration, msPerIteration: lapMs / CHECKPOINT_EVERY, ...collectedHeap() });
      lapStarted = performance.now();
    }
  }
  const first = checkpoints[0];
  const last = checkpoints[checkpoints.length - 1];
  emit({
    workload: 'w13',
    framework: 'ideact',
    iterations,
    checkpoints,
    heapAtFirstCheckpointMb: first.heapUsedMb,
    heapAtLastCheckpointMb: last.heapUsedMb,
    heapGrowthMb: last.heapUsedMb - first.heapUsedMb,
    totalSeconds: (performance.now() - started) / 1000,
  });
}

main().catch((error) => {
  emit({ workload: 'w13', framework: 'ideact', error: String(error?.stack ?? error) });
  process.exitCode = 1;
});
