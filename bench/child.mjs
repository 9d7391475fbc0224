/**
 * One benchmark process: `node bench/child.mjs <workload> <framework> [runs] [warmups]` runs one
 * shared workload (w1 | w2 | w3 | w9 | w10) for one framework in a fresh process (so peak RSS is that
 * framework's alone): `warmups` warm-up runs (default 1; bench:compare asks for more), then `runs`
 * measured runs (default 1; run.mjs interleaves one process per framework per round, so load drift on
 * a shared machine hits every framework alike). Prints one `BENCH_RESULT <json>` line with the raw
 * per-run samples; run.mjs takes the medians.
 */
import { performance } from 'node:perf_hooks';
import { resourceUsage } from 'node:process';
import { mean, warmAndMeasure } from './lib/stats.mjs';
import { EAGER_CALLS, FINAL_ANSWER } from './lib/fixtures.mjs';

const TURNS = 200;
const PARALLEL_CALLS = 100;
/** W9 (issue 16): what each of the 100 tool bodies awaits. */
const TOOL_DELAY_MS = 20;
const STRUCTURED_COUNT = 1000;
const GAP_WINDOW = 20;
/** Warm-up runs before the measured ones (the 4th argument, default 1). */
let warmups = 1;

/** `warmAndMeasure` with this process's warm-up count. */
function measure(runs, body) {
  return warmAndMeasure(runs, body, warmups);
}

function emit(result) {
  process.stdout.write(`BENCH_RESULT ${JSON.stringify(result)}\n`);
}

function check(condition, message) {
  if (!condition) throw new Error(`workload check failed: ${message}`);
}

async function toolLoop(adapter, runs) {
  return measure(runs, async () => {
    const stamps = [];
    const cpuBefore = process.cpuUsage();
    const started = performance.now();
    const outcome = await adapter.toolLoop({
      turns: TURNS,
      onModelCall: () => stamps.push(performance.now()),
    });
    const wall = performance.now() - started;
    const cpu = process.cpuUsage(cpuBefore);
    check(outcome.answer === FINAL_ANSWER, `final answer was ${JSON.stringify(outcome.answer)}`);
    check(outcome.toolRuns === TURNS, `${outcome.toolRuns} tool runs instead of ${TURNS}`);
    check(stamps.length === TURNS + 1, `${stamps.length} model calls instead of ${TURNS + 1}`);
    const gaps = stamps.slice(1).map((stamp, index) => stamp - stamps[index]);
    return {
      msPerTurn: wall / TURNS,
      cpuMsPerTurn: (cpu.user + cpu.system) / 1000 / TURNS,
      firstGapMs: mean(gaps.slice(0, GAP_WINDOW)),
      lastGapMs: mean(gaps.slice(-GAP_WINDOW)),
    };
  });
}

async function parallel(adapter, runs, toolDelayMs = 0) {
  return measure(runs, async () => {
    const started = performance.now();
    const outcome = await adapter.parallelCalls({ calls: PARALLEL_CALLS, toolDelayMs });
    const wall = performance.now() - started;
    check(outcome.answer === FINAL_ANSWER, `final answer was ${JSON.stringify(outcome.answer)}`);
    check(
      outcome.toolRuns === PARALLEL_CALLS,
      `${outcome.toolRuns} tool runs instead of ${PARALLEL_CALLS}`,
    );
    return { wallMs: wall };
  });
}

/** W9: W2 with every tool body awaiting a 20 ms timer (do the 100 waits overlap?). */
async function parallelDelayed(adapter, runs) {
  return parallel(adapter, runs, TOOL_DELAY_MS);
}

async function structured(adapter, runs) {
  return measure(runs, async () => {
    const started = performance.now();
    const outcome = await adapter.structured({ count: STRUCTURED_COUNT });
    const wall = performance.now() - started;
    check(
      outcome.last && outcome.last.name === 'Ada Lovelace',
      'the structured output is not the profile',
    );
    check(
      outcome.modelCalls === STRUCTURED_COUNT,
      `${outcome.modelCalls} model calls instead of ${STRUCTURED_COUNT}`,
    );
    return { msPerCall: wall / STRUCTURED_COUNT };
  });
}

/**
 * W10 (issue 16, eager calls): the model streams five Calls over 1,000 ms, one every 200 ms, each tool
 * body taking 200 ms; wall time of the whole run, and when the first and last tool bodies started
 * (ms after the run started). Two tool flavours: independent bodies (each waits alone) and bodies
 * that share one slot (one at a time); ideact runs each with eager calls and with them off.
 */
async function eagerCalls(adapter, runs) {
  const modes = adapter.eagerModes ?? ['default'];
  return measure(runs, async (index) => {
    const sample = {};
    // The warm-up (index -1) loads and compiles everything with one variant; the runs measure all.
    for (const mode of index < 0 ? modes.slice(0, 1) : modes) {
      for (const serial of index < 0 ? [false] : [false, true]) {
        const key = `${mode}_${serial ? 'oneSlot' : 'independent'}`;
        const started = performance.now();
        const outcome = await adapter.eagerCalls({ mode, serial });
        const wall = performance.now() - started;
        check(
          outcome.answer === FINAL_ANSWER,
          `final answer was ${JSON.stringify(outcome.answer)}`,
        );
        check(
          outcome.toolRuns === EAGER_CALLS,
          `${outcome.toolRuns} tool runs, not ${EAGER_CALLS}`,
        );
        check(outcome.modelCalls === 2, `${outcome.modelCalls} model calls instead of 2`);
        sample[`${key}_wallMs`] = wall;
        sample[`${key}_firstStartMs`] = outcome.starts[0];
        sample[`${key}_lastStartMs`] = outcome.starts[EAGER_CALLS - 1];
      }
    }
    return sample;
  });
}

const WORKLOADS = {
  w1: toolLoop,
  w2: (adapter, runs) => parallel(adapter, runs),
  w3: structured,
  w9: parallelDelayed,
  w10: eagerCalls,
  /** W12 (issue 16): W1 again, run by the ideact variants (`ideact+stream`, `ideact+trace`, …). */
  w12: toolLoop,
};

async function main() {
  const [workload, framework, runsArgument, warmupsArgument] = process.argv.slice(2);
  const runs = Math.max(1, Number(runsArgument ?? 1) || 1);
  warmups = Math.max(1, Number(warmupsArgument ?? 1) || 1);
  const body = WORKLOADS[workload];
  if (!body)
    throw new Error(
      `unknown workload ${workload}; expected one of ${Object.keys(WORKLOADS).join(', ')}`,
    );
  // `ideact+stream+trace`: the ideact adapter configured with features (W12's variants).
  const [base, ...features] = framework.split('+');
  let adapter;
  try {
    adapter = await import(`./frameworks/${base}.mjs`);
  } catch (error) {
    emit({
      workload,
      framework,
      unavailable: `cannot load adapter: ${error.message.split('\n')[0]}`,
    });
    return;
  }
  if (features.length > 0) {
    const reason =
      typeof adapter.configure === 'function'
        ? adapter.configure(features)
        : `${base} has no variants (${features.join('+')})`;
    if (reason) {
      emit({ workload, framework, unavailable: reason });
      return;
    }
  }
  if (typeof adapter.unavailable === 'function') {
    const reason = adapter.unavailable(workload);
    if (reason) {
      emit({ workload, framework, unavailable: reason });
      return;
    }
  }
  const samples = await body(adapter, runs);
  emit({ workload, framework, samples, peakRssMb: resourceUsage().maxRSS / 1024 });
}

main().catch((error) => {
  emit({
    workload: process.argv[2],
    framework: process.argv[3],
    error: String(error?.stack ?? error),
  });
  process.exitCode = 1;
});
