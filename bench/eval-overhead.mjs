/**
 * Evals (issue 33): `node bench/eval-overhead.mjs [rounds]` after `npm run build`, on the offline
 * provider (no network, no model).
 *
 * 1. Harness overhead per case: in ONE process, rounds alternate (order rotating) between running
 *    N cases directly — `agent.run()` for each, C at a time — and the same N cases through
 *    `runEval` (a `schema` and an `equals` scorer; no store, no experiments folder); the overhead is
 *    the median over rounds of eval time ÷ direct time in the same round. Target ≤ 1.1×.
 * 2. Throughput: 1,000 cases at concurrency 16 through `runEval` (cases/s), once as in code (no
 *    store), once as `ideact eval` runs them (a FileRunStore, the experiments folder with every case
 *    run's events), in a temp folder.
 * Prints a table and one `BENCH_RESULT <json>` line.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { median, quantile } from './lib/stats.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const ideact = require(path.join(ROOT, 'dist', 'index.js'));

const CASES = Number(process.env.CASES ?? 4000);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 16);
const ROUNDS = Math.max(3, Number(process.argv[2] ?? 15) || 15);
const THROUGHPUT_CASES = 1000;

const OUTPUT = {
  type: 'object',
  properties: { answer: { type: 'string' } },
  required: ['answer'],
  additionalProperties: false,
};

function newAgent() {
  return ideact.createAgent({ tools: [], provider: new ideact.OfflineProvider() });
}

function cases(count) {
  return Array.from({ length: count }, (_unused, index) => ({
    name: `case-${index}`,
    input: { question: `question ${index}` },
    expected: { answer: 'offline' },
  }));
}

/** Runs `tasks` (functions returning promises) `limit` at a time. */
async function limited(tasks, limit) {
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, tasks.length) }, async () => {
    while (next < tasks.length) {
      const task = tasks[next];
      next += 1;
      await task();
    }
  });
  await Promise.all(workers);
}

async function direct(agent, list) {
  const started = performance.now();
  await limited(
    list.map((item) => async () => {
      const result = await agent.run({
        context: [{ type: 'input', input: item.input }],
        output: OUTPUT,
        maxTurns: 10,
      });
      if (result.stopReason !== 'output')
        throw new Error(`direct run stopped: ${result.stopReason}`);
    }),
    CONCURRENCY,
  );
  return performance.now() - started;
}

async function harness(agent, list, options = {}) {
  const started = performance.now();
  const result = await ideact.runEval(
    {
      target: { agent, output: OUTPUT },
      cases: list,
      scorers: [{ type: 'schema' }, { type: 'equals', path: 'answer' }],
      maxTurns: 10,
    },
    { concurrency: CONCURRENCY, ...options },
  );
  const elapsed = performance.now() - started;
  if (result.summary.passedCases !== list.length) {
    throw new Error(`eval: ${result.summary.passedCases} of ${list.length} cases passed`);
  }
  return elapsed;
}

async function main() {
  const agent = newAgent();
  const list = cases(CASES);
  await direct(agent, list); // warm-up
  await harness(agent, list);
  const samples = { direct: [], eval: [] };
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? ['direct', 'eval'] : ['eval', 'direct'];
    for (const name of order) {
      samples[name].push(
        name === 'direct' ? await direct(agent, list) : await harness(agent, list),
      );
    }
  }
  const ratios = samples.eval.map((value, round) => value / samples.direct[round]);
  const overhead = {
    cases: CASES,
    concurrency: CONCURRENCY,
    rounds: ROUNDS,
    directMsPerCase: median(samples.direct) / CASES,
    evalMsPerCase: median(samples.eval) / CASES,
    ratio: median(ratios),
    ratioP10: quantile(ratios, 0.1),
    ratioP90: quantile(ratios, 0.9),
    // The fastest tenth of each: on a loaded machine closer to the undisturbed cost than medians.
    directFastMsPerCase: quantile(samples.direct, 0.1) / CASES,
    evalFastMsPerCase: quantile(samples.eval, 0.1) / CASES,
  };
  overhead.fastRatio = overhead.evalFastMsPerCase / overhead.directFastMsPerCase;

  const many = cases(THROUGHPUT_CASES);
  const inCode = await harness(agent, many);
  const folder = mkdtempSync(path.join(tmpdir(), 'ideact-eval-bench-'));
  let stored;
  try {
    const store = new ideact.FileRunStore({ dir: path.join(folder, 'runs') });
    const experiments = new ideact.ExperimentStore(path.join(folder, 'evals'));
    stored = await harness(agent, many, { store, experiments });
    await store.close();
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
  await agent.dispose();
  const throughput = {
    cases: THROUGHPUT_CASES,
    concurrency: CONCURRENCY,
    inCodeCasesPerSecond: THROUGHPUT_CASES / (inCode / 1000),
    storedCasesPerSecond: THROUGHPUT_CASES / (stored / 1000),
  };

  const fixed = (value, digits = 3) => value.toFixed(digits);
  process.stdout.write(
    [
      `harness overhead, ${CASES} cases at concurrency ${CONCURRENCY}, ${ROUNDS} rounds:`,
      `  direct agent.run()  ${fixed(overhead.directMsPerCase)} ms/case`,
      `  runEval             ${fixed(overhead.evalMsPerCase)} ms/case`,
      `  ratio (median of paired rounds)  ${fixed(overhead.ratio)}  (p10 ${fixed(overhead.ratioP10)}, p90 ${fixed(overhead.ratioP90)})`,
      `  fastest tenth: direct ${fixed(overhead.directFastMsPerCase)} ms/case, runEval ${fixed(overhead.evalFastMsPerCase)} ms/case, ratio ${fixed(overhead.fastRatio)}`,
      `throughput, ${THROUGHPUT_CASES} cases at concurrency ${CONCURRENCY}:`,
      `  runEval, no store                            ${fixed(throughput.inCodeCasesPerSecond, 0)} cases/s`,
      `  runEval, FileRunStore + experiments folder   ${fixed(throughput.storedCasesPerSecond, 0)} cases/s`,
      '',
    ].join('\n'),
  );
  process.stdout.write(
    `BENCH_RESULT ${JSON.stringify({ workload: 'eval-overhead', framework: 'ideact', overhead, throughput })}\n`,
  );
}

main().catch((error) => {
  process.stdout.write(
    `BENCH_RESULT ${JSON.stringify({ workload: 'eval-overhead', framework: 'ideact', error: String(error?.stack ?? error) })}\n`,
  );
  process.exitCode = 1;
});
