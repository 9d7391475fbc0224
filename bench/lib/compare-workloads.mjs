/**
 * The workloads of `npm run bench:compare` (issue 28) and the fresh child process that measures one of
 * them for one side: W1 (custom Provider and `ScriptedProvider`), W2 and W3 through bench/child.mjs and
 * the ideact adapter (pointed at the side's installed package by IDEACT_BENCH_PACKAGE), and the cold
 * imports as small scripts inside the side's app folder, beside bare scripts for the runtime's own cost.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { median } from './stats.mjs';

/** A child that takes longer than this has hung (a whole W1 child takes about a second). */
const CHILD_TIMEOUT_MS = 120_000;
/**
 * Warm-up runs, then measured runs, in each W1–W3 child; the child's figure is the median of its
 * measured runs. With a single warm-up, a loaded machine measures code V8 has not optimized yet (its
 * compiler threads wait for a core too): W3 of 982f366 took 0.037 ms per call in the first run after
 * one warm-up and settled at 0.010 from the fourth on (load ~4 on 2 cores).
 */
export const CHILD_WARMUPS = 3;
export const CHILD_RUNS = 5;
/** Cold-import processes per side per round (each with a bare one beside it): cheap and noisy. */
export const COLD_PER_ROUND = 3;

/** What a cold script prints last: the ms since the process started, and its RSS. */
const REPORT =
  'process.stdout.write(JSON.stringify({ ms: performance.now(), rss: process.memoryUsage().rss }));';

/** A cold script's exit code when the package loaded but does not offer `createAgent` that way. */
const NOT_OFFERED = 3;

/** Ends a cold script that found no `createAgent` (exit NOT_OFFERED, the reason on stderr). */
const fail = (reason) =>
  `{ process.stderr.write(${JSON.stringify(reason)}); process.exit(${NOT_OFFERED}); }`;

/** What Node says when an ESM named import finds no such export in the CommonJS module. */
const NAMED_EXPORT_MISSING =
  /SyntaxError: [^\n]*(?:does not provide an export named|Named export)[^\n]*/;

/** The cold scripts written into each app folder (file name → source). */
const COLD_SCRIPTS = {
  'bare.cjs': REPORT,
  'bare.mjs': REPORT,
  'require.cjs':
    "const ideact = require('ideact');\n" +
    // Object.keys reads no getter: a lazy entry stays lazy, as for a user who only requires it.
    `if (!Object.keys(ideact).includes('createAgent')) ${fail("require('ideact') has no createAgent export")}\n` +
    REPORT,
  'import.mjs':
    "const ideact = await import('ideact');\n" +
    `if (typeof ideact.createAgent !== 'function') ${fail("(await import('ideact')).createAgent is not a function")}\n` +
    REPORT,
  'named.mjs':
    "import { createAgent } from 'ideact';\n" +
    `if (typeof createAgent !== 'function') ${fail('the named import createAgent is not a function')}\n` +
    REPORT,
};

/** Writes the cold scripts into an app folder (where `ideact` resolves as in a user's app). */
export function writeColdScripts(appFolder) {
  for (const [name, source] of Object.entries(COLD_SCRIPTS)) {
    writeFileSync(path.join(appFolder, name), `${source}\n`);
  }
}

/**
 * The workloads of the comparison. `child`: bench/child.mjs `<workload> <framework>`; `cold`: the
 * script and its bare baseline. `rows`: the table's rows, each a label and the key of its figure (a
 * child's sample key; `ms` or `rssMb` over bare node for a cold import).
 */
export const WORKLOADS = [
  {
    id: 'w1',
    child: { workload: 'w1', framework: 'ideact' },
    rows: [
      ['W1: 200-turn tool loop, custom Provider, ms per turn', 'msPerTurn'],
      // CPU time counts less of the waits for a core on a loaded machine: wall far above it says so.
      ['W1: the same, CPU ms per turn (process.cpuUsage, GC threads included)', 'cpuMsPerTurn'],
    ],
  },
  {
    id: 'w1-scripted',
    child: { workload: 'w1', framework: 'ideact+scripted' },
    rows: [['W1 with `ScriptedProvider` (ideact/testing), ms per turn', 'msPerTurn']],
  },
  {
    id: 'w2',
    child: { workload: 'w2', framework: 'ideact' },
    rows: [['W2: one turn of 100 instant calls, ms', 'wallMs']],
  },
  {
    id: 'w3',
    child: { workload: 'w3', framework: 'ideact' },
    rows: [['W3: 1,000 structured requests, ms per call', 'msPerCall']],
  },
  coldWorkload('require', "cold `require('ideact')` (CJS)", 'require.cjs', 'bare.cjs'),
  coldWorkload('import', "cold `await import('ideact')` (ESM)", 'import.mjs', 'bare.mjs'),
  coldWorkload(
    'named',
    "cold `import { createAgent } from 'ideact'` (.mjs)",
    'named.mjs',
    'bare.mjs',
  ),
];

/** A cold-import workload: its time row and its RSS row, both over a bare process of the same kind. */
function coldWorkload(id, label, script, bare) {
  return {
    id,
    cold: { script, bare },
    rows: [
      [`${label}, ms over bare node`, 'ms'],
      [`${label}, RSS MB over bare node`, 'rssMb'],
    ],
  };
}

/** The first line of a child's stderr tail, for a one-line reason. */
function lastLines(text) {
  return String(text ?? '')
    .trim()
    .split('\n')
    .slice(-3)
    .join(' | ');
}

/**
 * One W1–W3 measurement for one side in a fresh process (started with `nodeOptions`, bench:compare's
 * `--node-option`s, before the script; `warmups` runs, then `runs` measured ones): `{ figures }` (the medians of `keys` over
 * the child's measured runs),
 * `{ unavailable }` (the side's package lacks the API: n/a) or `{ error }` (the child failed or its
 * work check did).
 */
export function measureChild(
  benchFolder,
  side,
  child,
  keys,
  nodeOptions = [],
  { runs = CHILD_RUNS, warmups = CHILD_WARMUPS } = {},
) {
  const result = spawnSync(
    process.execPath,
    [
      ...nodeOptions,
      path.join(benchFolder, 'child.mjs'),
      child.workload,
      child.framework,
      String(runs),
      String(warmups),
    ],
    {
      cwd: side.appFolder,
      encoding: 'utf8',
      timeout: CHILD_TIMEOUT_MS,
      maxBuffer: 64 * 1024 * 1024,
      env: { ...process.env, IDEACT_BENCH_PACKAGE: side.packageFolder },
    },
  );
  const line = (result.stdout || '').split('\n').find((text) => text.startsWith('BENCH_RESULT '));
  if (!line) {
    const reason = result.error?.message ?? `exit ${result.status}: ${lastLines(result.stderr)}`;
    return { error: `no result (${reason})` };
  }
  const parsed = JSON.parse(line.slice('BENCH_RESULT '.length));
  if (parsed.unavailable) return { unavailable: parsed.unavailable };
  if (parsed.error) return { error: String(parsed.error).split('\n')[0] };
  const samples = parsed.samples ?? [];
  const missing = keys.filter(
    (key) => samples.length === 0 || samples.some((sample) => !Number.isFinite(sample[key])),
  );
  if (missing.length > 0) return { error: `the child reported no ${missing.join(', ')}` };
  return {
    figures: Object.fromEntries(
      keys.map((key) => [key, median(samples.map((sample) => sample[key]))]),
    ),
  };
}

/**
 * One cold script run in the side's app folder: `{ ms, rssMb }`, `{ unavailable }` (the package does
 * not offer `createAgent` that way: n/a) or `{ error }` (the import or the process failed).
 */
function runCold(side, script, nodeOptions) {
  const result = spawnSync(process.execPath, [...nodeOptions, script], {
    cwd: side.appFolder,
    encoding: 'utf8',
    timeout: CHILD_TIMEOUT_MS,
  });
  const named = NAMED_EXPORT_MISSING.exec(result.stderr ?? '');
  if (result.status === NOT_OFFERED || (result.status !== 0 && named)) {
    return { unavailable: named ? named[0] : String(result.stderr).trim() };
  }
  if (result.status !== 0) {
    const reason = result.error?.message ?? `exit ${result.status}: ${lastLines(result.stderr)}`;
    return { error: `node ${script} failed (${reason})` };
  }
  const { ms, rss } = JSON.parse(result.stdout);
  return { ms, rssMb: rss / 2 ** 20 };
}

/**
 * `COLD_PER_ROUND` pairs of (bare, cold import) processes for one side, each started with
 * `nodeOptions`: `{ pairs }`, or the first
 * `{ unavailable }` or `{ error }`.
 */
export function measureCold(side, cold, nodeOptions = []) {
  const pairs = [];
  for (let index = 0; index < COLD_PER_ROUND; index++) {
    const bare = runCold(side, cold.bare, nodeOptions);
    if (bare.error || bare.unavailable) return bare;
    const imported = runCold(side, cold.script, nodeOptions);
    if (imported.error || imported.unavailable) return imported;
    pairs.push({ bare, imported });
  }
  return { pairs };
}

/**
 * The figures of one side from its rounds' results, by row key: a child workload's are the medians
 * over the rounds of each child's median; a cold one's `ms` and `rssMb` are the median of the imports minus the median of
 * the bare processes; an n/a or a failure in any round gives `{ unavailable }` or `{ error }`.
 */
export function summarize(workload, results) {
  const failed = results.find((result) => result.error);
  if (failed) return { error: failed.error };
  const unavailable = results.find((result) => result.unavailable);
  if (unavailable) return { unavailable: unavailable.unavailable };
  if (workload.child) {
    return Object.fromEntries(
      workload.rows.map(([, key]) => [key, median(results.map((result) => result.figures[key]))]),
    );
  }
  const pairs = results.flatMap((result) => result.pairs);
  const over = (key) =>
    median(pairs.map((pair) => pair.imported[key])) - median(pairs.map((pair) => pair.bare[key]));
  return { ms: over('ms'), rssMb: over('rssMb') };
}
