/**
 * W1 or W9 with ideact in one warm process, for comparing builds and for CPU profiles:
 * `node bench/ideact-steady.mjs <w1|w9> [variant] [warm-up runs] [measured runs]` runs the workload
 * `warm-up` times (default 20), then `measured` times (default 60), and prints the median and the
 * 10th percentile (ms/turn for W1, wall ms for W9). `variant`: `run` (default), `stream`, `trace` or
 * `stream+trace` (W12's variants; builds before issue 16 only have `run`). It measures the dist/ of
 * the tree it is in, so the same file in two `git archive` trees compares two builds; with
 * `node --cpu-prof` it gives the profile of the steady state, not of JIT warm-up.
 */
import { performance } from 'node:perf_hooks';
import { FINAL_ANSWER } from './lib/fixtures.mjs';
import { median, quantile } from './lib/stats.mjs';
import * as ideact from './frameworks/ideact.mjs';

const TURNS = 200;
const CALLS = 100;
const TOOL_DELAY_MS = 20;

async function once(workload) {
  const started = performance.now();
  if (workload === 'w1') {
    const outcome = await ideact.toolLoop({ turns: TURNS });
    if (outcome.answer !== FINAL_ANSWER || outcome.toolRuns !== TURNS) throw new Error('W1 failed');
    return (performance.now() - started) / TURNS;
  }
  const outcome = await ideact.parallelCalls({ calls: CALLS, toolDelayMs: TOOL_DELAY_MS });
  if (outcome.answer !== FINAL_ANSWER || outcome.toolRuns !== CALLS) throw new Error('W9 failed');
  return performance.now() - started;
}

async function main() {
  const [workload = 'w1', variant = 'run', warmArgument, runsArgument] = process.argv.slice(2);
  if (workload !== 'w1' && workload !== 'w9') throw new Error(`unknown workload ${workload}`);
  if (variant !== 'run') {
    const reason = ideact.configure(variant.split('+'));
    if (reason) throw new Error(reason);
  }
  const warm = Number(warmArgument ?? 20);
  const runs = Number(runsArgument ?? 60);
  for (let index = 0; index < warm; index++) await once(workload);
  const samples = [];
  for (let index = 0; index < runs; index++) samples.push(await once(workload));
  const unit = workload === 'w1' ? 'ms/turn' : 'ms wall';
  process.stdout.write(
    `${workload} ${variant}: median ${median(samples).toFixed(4)} ${unit}, ` +
      `p10 ${quantile(samples, 0.1).toFixed(4)} (${runs} runs after ${warm} warm-up runs)\n`,
  );
}

main().catch((error) => {
  process.stderr.write(`${error?.stack ?? error}\n`);
  process.exitCode = 1;
});
