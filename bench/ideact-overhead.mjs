/**
 * W12 paired (issue 16): `node bench/ideact-overhead.mjs [rounds]` runs W1 (200 turns of one call,
 * then the answer) with ideact in ONE process, the six variants alternating run by run: plain
 * `agent.run()`, `agent.stream()` read by `for await`, `agent.run()` with the OpenTelemetry SDK
 * registered (simple span processor, and the batch processor production uses), and stream + SDK
 * (the SDK is registered and unregistered between runs). Every round runs each
 * variant once, in a rotating order, so that a load burst on a shared machine hits all of them; the
 * overhead of a variant is the median over rounds of its time ÷ the plain run's time in the same
 * round. Prints one `BENCH_RESULT <json>` line.
 */
import { performance } from 'node:perf_hooks';
import { FINAL_ANSWER } from './lib/fixtures.mjs';
import { median, quantile } from './lib/stats.mjs';
import * as ideact from './frameworks/ideact.mjs';

const TURNS = 200;
const DEFAULT_ROUNDS = 40;
const VARIANTS = {
  run: [],
  stream: ['stream'],
  trace: ['trace'],
  'trace+batch': ['trace', 'batch'],
  'stream+trace': ['stream', 'trace'],
  'stream+trace+batch': ['stream', 'trace', 'batch'],
};

function emit(result) {
  process.stdout.write(`BENCH_RESULT ${JSON.stringify(result)}\n`);
}

/** One W1 run of `variant`: wall and CPU per turn. */
async function oneRun(variant) {
  const reason = ideact.configure(VARIANTS[variant]);
  if (reason) throw new Error(reason);
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const outcome = await ideact.toolLoop({ turns: TURNS });
  const wall = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  if (outcome.answer !== FINAL_ANSWER || outcome.toolRuns !== TURNS) {
    throw new Error(`W12: ${variant} answered ${outcome.answer} after ${outcome.toolRuns} Calls`);
  }
  return { msPerTurn: wall / TURNS, cpuMsPerTurn: (cpu.user + cpu.system) / 1000 / TURNS };
}

async function main() {
  const reason = ideact.unavailable('w12');
  if (reason) return emit({ workload: 'w12-paired', framework: 'ideact', unavailable: reason });
  const rounds = Math.max(5, Number(process.argv[2] ?? DEFAULT_ROUNDS) || DEFAULT_ROUNDS);
  const names = Object.keys(VARIANTS);
  for (const name of names) await oneRun(name); // warm-up
  const samples = Object.fromEntries(names.map((name) => [name, []]));
  for (let round = 0; round < rounds; round++) {
    const order = names.map((_, index) => names[(index + round) % names.length]);
    for (const name of order) samples[name].push(await oneRun(name));
  }
  ideact.configure([]);
  const variants = {};
  for (const name of names) {
    const list = samples[name];
    const ratios = (key) => list.map((sample, round) => sample[key] / samples.run[round][key]);
    variants[name] = {
      msPerTurn: median(list.map((sample) => sample.msPerTurn)),
      msPerTurnP10: quantile(
        list.map((sample) => sample.msPerTurn),
        0.1,
      ),
      cpuMsPerTurn: median(list.map((sample) => sample.cpuMsPerTurn)),
      overhead: median(ratios('msPerTurn')) - 1,
      cpuOverhead: median(ratios('cpuMsPerTurn')) - 1,
    };
  }
  emit({ workload: 'w12-paired', framework: 'ideact', rounds, turns: TURNS, variants });
}

main().catch((error) => {
  emit({ workload: 'w12-paired', framework: 'ideact', error: String(error?.stack ?? error) });
  process.exitCode = 1;
});
