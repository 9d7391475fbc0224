/**
 * What each run of a fresh process pays while V8 tiers the code up (issue 28): runs W1, W2 or W3 through
 * the ideact adapter `runs` times in a child started with `--trace-opt --trace-gc` (plus any Node
 * flags given after `--`) and prints, per run, its wall time, the optimizing-compiler jobs that
 * finished during it and their time on the compiler thread, and the GC pauses. Usage:
 * `node bench/tier-up.mjs <w1|w1-scripted|w2|w3> [runs=12] [-- <node flags…>]`, e.g. `-- --v8-pool-size=2` or
 * `-- --no-opt`. bench:compare measures runs 4–8 of such a process. It also counts the
 * deoptimizations per run (`--trace-deopt-verbose`) and lists where the package's code was thrown
 * away: a deoptimization every run or two (a new hidden class per run) costs a recompile each time.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const BENCH = path.dirname(fileURLToPath(import.meta.url));
const argv = process.argv.slice(2);
const separator = argv.indexOf('--');
const [workload = 'w1', runsArgument = '12'] = separator < 0 ? argv : argv.slice(0, separator);
const nodeFlags = separator < 0 ? [] : argv.slice(separator + 1);
/** Each workload's run (the adapter call) and the unit its figure is per. */
const WORKLOADS = {
  w1: { call: 'adapter.toolLoop({ turns: 200 })', per: 200, unit: 'ms per turn' },
  'w1-scripted': {
    call: 'adapter.toolLoop({ turns: 200 })',
    features: ['scripted'],
    per: 200,
    unit: 'ms per turn',
  },
  w2: { call: 'adapter.parallelCalls({ calls: 100 })', per: 1, unit: 'ms per run' },
  w3: { call: 'adapter.structured({ count: 1000 })', per: 1000, unit: 'ms per request' },
};
const chosen = WORKLOADS[workload];
if (chosen === undefined) {
  process.stderr.write(`unknown workload ${workload}; expected w1, w1-scripted, w2 or w3\n`);
  process.exit(2);
}
const runs = Math.max(1, Number(runsArgument) || 12);

const CHILD = `
const adapter = await import(${JSON.stringify(path.join(BENCH, 'frameworks', 'ideact.mjs'))});
const unavailable = adapter.configure(${JSON.stringify(chosen.features ?? [])});
if (unavailable) throw new Error(unavailable);
for (let index = 0; index < ${runs}; index++) {
  console.log('TIER_RUN ' + index);
  const started = performance.now();
  await ${chosen.call};
  console.log('TIER_MS ' + (performance.now() - started));
}
`;
const result = spawnSync(
  process.execPath,
  [
    '--trace-opt',
    '--trace-gc',
    '--trace-deopt-verbose',
    ...nodeFlags,
    '--input-type=module',
    '--eval',
    CHILD,
  ],
  { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, env: process.env },
);
if (result.status !== 0) {
  process.stderr.write(result.stderr);
  process.exit(result.status ?? 1);
}

const perRun = [];
let current = { jobs: 0, compileMs: 0, gcMs: 0, gcs: 0, deopts: 0 };
/** Deoptimizations: `<function>: <reason> at <source position>`, with how many times and in which runs. */
const deopts = new Map();
let pendingDeopt;
for (const line of result.stdout.split('\n')) {
  if (line.startsWith('TIER_RUN ')) {
    current = { jobs: 0, compileMs: 0, gcMs: 0, gcs: 0, deopts: 0 };
    perRun.push(current);
  } else if (line.startsWith('[bailout (kind: deopt-')) {
    const bailout = /reason: (.*?)\): begin\. deoptimizing \S+ <JSFunction (\S*)/.exec(line);
    current.deopts += 1;
    pendingDeopt = bailout ? `${bailout[2] || '(anonymous)'}: ${bailout[1]}` : 'unknown';
  } else if (pendingDeopt !== undefined && line.includes(';;; deoptimize at <')) {
    // The innermost position first: where the code that was thrown away read what it did not expect.
    const where = /deoptimize at <([^>]*)>/.exec(line)?.[1] ?? '?';
    const key = `${pendingDeopt} at ${where.replace(/^.*\/(dist|node_modules)\//, '$1/')}`;
    const entry = deopts.get(key) ?? { count: 0, runs: new Set() };
    entry.count += 1;
    entry.runs.add(perRun.length);
    deopts.set(key, entry);
    pendingDeopt = undefined;
  } else if (line.startsWith('TIER_MS ')) {
    current.ms = Number(line.slice('TIER_MS '.length));
  } else if (line.includes('completed compiling')) {
    // `took a, b, c ms`: b is the job's time on the compiler thread.
    const took = /took ([\d.]+), ([\d.]+), ([\d.]+) ms/.exec(line);
    if (took) {
      current.jobs += 1;
      current.compileMs += Number(took[2]);
    }
  } else if (/: (Scavenge|Mark-Compact|Mark-sweep)/.test(line)) {
    const pause = /MB, ([\d.]+) \//.exec(line);
    if (pause) {
      current.gcs += 1;
      current.gcMs += Number(pause[1]);
    }
  }
}

const unit = chosen.unit;
process.stdout.write(
  `${workload}, ${runs} runs in one process${nodeFlags.length > 0 ? ` (node ${nodeFlags.join(' ')})` : ''}\n`,
);
process.stdout.write(
  `run | ${unit} | compiler jobs | compiler-thread ms | GC pauses | GC ms | deoptimizations\n`,
);
perRun.forEach((run, index) => {
  const figure = run.ms / chosen.per;
  process.stdout.write(
    `${String(index + 1).padStart(3)} | ${figure.toPrecision(3).padStart(7)} | ${String(run.jobs).padStart(4)} | ` +
      `${run.compileMs.toFixed(1).padStart(7)} | ${String(run.gcs).padStart(3)} | ${run.gcMs.toFixed(1).padStart(5)} | ${run.deopts}\n`,
  );
});
const measured = perRun
  .slice(3, 8)
  .map((run) => run.ms / chosen.per)
  .sort((left, right) => left - right);
if (measured.length === 5) {
  process.stdout.write(
    `median of runs 4–8 (what bench:compare takes): ${measured[2].toFixed(3)}\n`,
  );
}
const ours = [...deopts].filter(([key]) => !key.includes(' at node:'));
process.stdout.write(
  ours.length === 0
    ? 'no deoptimization in the package’s code\n'
    : `deoptimizations in the package's code (function: reason at position · times · runs):\n${ours
        .map(([key, entry]) => `  ${key} · ${entry.count} · ${[...entry.runs].join(', ')}`)
        .join('\n')}\n`,
);
