/**
 * Issue 18 benchmarks of the DBOS workers, on a real PostgreSQL (IDEACT_TEST_DATABASE_URL, default
 * postgres://postgres@127.0.0.1:5432/test). Each invocation uses a fresh run-store schema and a fresh
 * DBOS system schema (random names), dropped at the end.
 *
 *   npm run build
 *   node bench/ideact-workers.mjs throughput [--runs 1000] [--workers 2] [--concurrency 4] [--polling-ms 1000]
 *   node bench/ideact-workers.mjs idle [--workers 2] [--seconds 20]
 *   node bench/ideact-workers.mjs recovery [--trials 5] [--takeover-ms 5000] [--polling-ms 1000] [--nested]
 *   (--profile DIR: the workers write V8 CPU profiles there; --keep: the schemas are not dropped)
 *
 * throughput: RUNS short scripted runs (3 turns of 2 instant Calls, then the answer: 10 DBOS steps
 *   each: 4 model turns (`agent-step`), 6 Calls (`call <callId>`)) enqueued on one queue that WORKERS
 *   worker processes (default 2) consume; runs/s from the first enqueue to the last run's end,
 *   and the latency of a step (DBOS's operation_outputs: completed − started of each step), of the
 *   gap between steps and of a run. Then the same runs in this process without
 *   DBOS (in memory, FileRunStore, PostgresRunStore), driven with `run.step()` and timed per step as
 *   the worker groups them (a model turn, or an Actor step), as many at a time as the workers run.
 * recovery: per trial, a run whose second Call sleeps 60 s on its first attempt; once it started, the
 *   worker running it is SIGKILLed; reported: kill → re-enqueued by the other worker's takeover scan →
 *   dequeued → the interrupted step starts again (its Call's second attempt). --nested: the run's one
 *   module Call starts a nested agent (a child workflow) that runs those two Calls; the child workflow is
 *   the one watched (re-enqueued on DBOS's internal queue, dequeued, its step starting again).
 * `worker` (internal): one worker process, started by the two modes above.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { clearInterval, setInterval } from 'node:timers';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { loadIdeact, ROOT } from './lib/ideact-package.mjs';
import { formatNumber, median, quantile } from './lib/stats.mjs';
import { startWorkerChild, stopWorkerChild } from './lib/worker-process.mjs';
import {
  benchAgent,
  NESTED_OUTPUT,
  SHORT_OUTPUT,
  SLOW_OUTPUT,
  TASKS,
} from './lib/worker-agent.mjs';

const require = createRequire(import.meta.url);
const { Client } = require(path.join(ROOT, 'node_modules', 'pg'));
const SCRIPT = fileURLToPath(import.meta.url);
const DATABASE_URL =
  process.env.IDEACT_TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const QUEUE = 'bench-runs';
/**
 * DBOS steps of a short run (issue 31): 4 model turns (Prompter, Generator, Discriminator; the first
 * 3 report the Actor step their turn ends at, the last one runs the answer's Vessel, which has no
 * Calls, and ends the run) and 6 Calls (`call <callId>`). Before issue 31: 14 (the reports and the
 * last Actor step were steps of their own).
 */
const STEPS_PER_RUN = 10;

const { positionals, values: flags } = parseArgs({
  allowPositionals: true,
  options: {
    runs: { type: 'string', default: '1000' },
    trials: { type: 'string', default: '5' },
    concurrency: { type: 'string', default: '4' },
    workers: { type: 'string', default: '2' },
    seconds: { type: 'string', default: '20' },
    'polling-ms': { type: 'string' },
    'takeover-ms': { type: 'string' },
    'skip-in-process': { type: 'boolean', default: false },
    nested: { type: 'boolean', default: false },
    keep: { type: 'boolean', default: false },
    profile: { type: 'string' },
  },
});
const mode = positionals[0];
const int = (value) => (value === undefined ? undefined : Number(value));

const ideact = loadIdeact();
if (ideact.loadError) {
  console.error(ideact.loadError);
  process.exit(1);
}

// ---------------------------------------------------------------------------------- worker child

async function workerChild() {
  const env = JSON.parse(process.env.BENCH_WORKER);
  const worker = await ideact.startWorker({
    databaseUrl: DATABASE_URL,
    schema: env.schema,
    systemSchema: env.systemSchema,
    queueName: QUEUE,
    // Runs enqueued with agentName 'nested' (recovery --nested) get the agent with the helper module.
    agent: ((plain, nested) => (header) => (header.agentName === 'nested' ? nested : plain))(
      benchAgent({ log: env.log }),
      benchAgent({ log: env.log, nested: true }),
    ),
    concurrency: env.concurrency,
    ...(env.pollingMs === undefined ? {} : { pollingIntervalMs: env.pollingMs }),
    ...(env.takeoverMs === undefined ? {} : { takeoverIntervalMs: env.takeoverMs }),
    onError: (error) => process.stderr.write(`worker: ${String(error)}\n`),
  });
  process.once('SIGTERM', () => {
    void worker.stop({ timeoutMs: 2_000 }).then(() => {
      process.stdout.write(`${JSON.stringify({ cpu: cpuMs() })}\n`);
      process.exit(0);
    });
  });
  const ready = { ready: worker.executorId, pid: process.pid, cpu: cpuMs() };
  process.stdout.write(`${JSON.stringify(ready)}\n`);
}

/** CPU time this process used so far (user + system), in ms. */
function cpuMs() {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** Starts a worker process; resolves once it consumes the queue. */
function startWorkerProcess(environment) {
  // --profile DIR: each worker writes a V8 CPU profile there (bench/profile-summary.mjs reads them).
  const nodeArgs =
    flags.profile === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${flags.profile}`];
  return startWorkerChild({
    script: SCRIPT,
    cwd: ROOT,
    variable: 'BENCH_WORKER',
    environment,
    nodeArgs,
    label: 'a worker',
  });
}

// ---------------------------------------------------------------------------------- fixtures

/** Fresh schemas, a side-effect log, the workers; everything removed by `close()`. */
async function benchEnvironment() {
  const suffix = randomBytes(5).toString('hex');
  const admin = new Client({ connectionString: DATABASE_URL });
  admin.on('error', () => undefined);
  await admin.connect();
  const directory = mkdtempSync(path.join(tmpdir(), 'ideact-bench-workers-'));
  const environment = {
    schema: `bench_store_${suffix}`,
    systemSchema: `bench_dbos_${suffix}`,
    log: path.join(directory, 'effects.jsonl'),
    concurrency: int(flags.concurrency),
    pollingMs: int(flags['polling-ms']),
    takeoverMs: int(flags['takeover-ms']),
  };
  const workers = [];
  const queue = new ideact.RunQueue({
    databaseUrl: DATABASE_URL,
    schema: environment.schema,
    systemSchema: environment.systemSchema,
    queueName: QUEUE,
  });
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await Promise.all(workers.map((worker) => stopWorkerChild(worker)));
    await queue.close().catch(() => undefined);
    for (const schema of [environment.schema, environment.systemSchema]) {
      if (flags.keep) console.log(`kept schema ${schema}`);
      else await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    }
    await admin.end();
    rmSync(directory, { recursive: true, force: true });
  };
  process.once('SIGINT', () => void close().then(() => process.exit(130)));
  const query = async (text, parameters) => (await admin.query(text, parameters)).rows;
  return { environment, workers, queue, query, close, directory };
}

function sideEffects(log) {
  if (!existsSync(log)) return [];
  return readFileSync(log, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line));
}

/** Runs `count` jobs, `width` at a time. */
async function pool(count, width, job) {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, count) }, async () => {
      while (next < count) await job(next++);
    }),
  );
}

const ms = (value) => `${formatNumber(value)} ms`;
const p = (values, fraction) => quantile(values, fraction);

function printTable(header, rows) {
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => String(row[column]).length)),
  );
  const line = (cells) =>
    `| ${cells.map((cell, i) => String(cell).padEnd(widths[i])).join(' | ')} |`;
  console.log(line(header));
  console.log(`| ${widths.map((width) => '-'.repeat(width)).join(' | ')} |`);
  for (const row of rows) console.log(line(row));
}

function machine() {
  return `${cpus().length} cores · Node ${process.version} · load average ${loadavg()
    .map((value) => value.toFixed(2))
    .join(' ')}`;
}

// ---------------------------------------------------------------------------------- throughput

/** One run in this process, step by step as a worker groups them; the steps' durations. */
async function inProcessRun(agent, steps) {
  const run = agent.start({ task: TASKS.short, maxTurns: 10 });
  let next = run.state.nextStep;
  while (next.module !== 'done') {
    const started = performance.now();
    do next = await run.step();
    while (next.module !== 'done' && next.module !== 'prompter' && next.module !== 'actor');
    steps.push(performance.now() - started);
  }
  const result = await run.result();
  if (result.output !== SHORT_OUTPUT) throw new Error(`in-process run: ${result.stopReason}`);
}

async function inProcess(label, runs, width, makeStore) {
  const { store, close } = await makeStore();
  const agent = benchAgent({ config: store === undefined ? {} : { store } });
  const warmSteps = [];
  for (let index = 0; index < 20; index++) await inProcessRun(agent, warmSteps); // warm-up
  const steps = [];
  const latencies = [];
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  await pool(runs, width, async () => {
    const runStarted = performance.now();
    await inProcessRun(agent, steps);
    latencies.push(performance.now() - runStarted);
  });
  await store?.flush?.();
  const wall = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  await close?.();
  return { label, wall, steps, latencies, gaps: [], cpu: (cpu.user + cpu.system) / 1000 };
}

async function throughput() {
  const runs = int(flags.runs);
  const workerCount = int(flags.workers);
  const width = workerCount * int(flags.concurrency);
  console.log(
    `throughput: ${runs} runs · ${workerCount} workers × concurrency ${flags.concurrency} · ${machine()}`,
  );
  const bench = await benchEnvironment();
  const { environment, queue, query, workers } = bench;
  const rows = [];
  let verdict;
  try {
    workers.push(
      ...(await Promise.all(
        Array.from({ length: workerCount }, () => startWorkerProcess(environment)),
      )),
    );
    // The database's connections while the runs go through (sampled every 200 ms), less those before.
    const [{ count: before }] = await query(CONNECTIONS_SQL);
    let peakConnections = before;
    const sampler = setInterval(() => {
      void query(CONNECTIONS_SQL)
        .then(([{ count }]) => (peakConnections = Math.max(peakConnections, count)))
        .catch(() => undefined);
    }, 200);
    const enqueueStarted = Date.now();
    const runIds = [];
    await pool(runs, 8, async () => {
      const { runId } = await queue.enqueue({ task: TASKS.short, maxTurns: 10 });
      runIds.push(runId);
    });
    const enqueueMs = Date.now() - enqueueStarted;
    const system = `"${environment.systemSchema}"`;
    // Every run's workflow ends (polled on the system table: cheaper than 1,000 waits).
    for (;;) {
      const [{ open }] = await query(
        `SELECT count(*)::int AS open FROM ${system}.workflow_status WHERE status IN ('ENQUEUED','PENDING')`,
      );
      if (open === 0) break;
      await sleep(200);
    }
    const workflows = await query(
      // Outputs live in workflow_output (DBOS 5; older releases kept them in workflow_status).
      `SELECT ws.workflow_uuid, ws.status, ws.executor_id, COALESCE(wo.output, ws.output) AS output,
              COALESCE(wo.error, ws.error) AS error,
              ws.started_at_epoch_ms::float8 AS started,
              COALESCE(ws.completed_at, ws.updated_at)::float8 AS completed
         FROM ${system}.workflow_status ws
         LEFT JOIN ${system}.workflow_output wo ON wo.workflow_uuid = ws.workflow_uuid`,
    );
    const steps = await query(
      `SELECT workflow_uuid, function_id, function_name, started_at_epoch_ms::float8 AS started,
              completed_at_epoch_ms::float8 AS completed
         FROM ${system}.operation_outputs ORDER BY workflow_uuid, function_id`,
    );
    clearInterval(sampler);
    verdict = checkThroughput(runIds, workflows, steps, sideEffects(environment.log), workers);
    await Promise.all(workers.map((worker) => stopWorkerChild(worker)));
    const workerCpu = workers.reduce((sum, worker) => sum + (worker.cpu() ?? Number.NaN), 0);
    const lastEnd = Math.max(...workflows.map((workflow) => workflow.completed));
    const durations = steps.map((step) => step.completed - step.started);
    const gaps = [];
    for (let index = 1; index < steps.length; index++) {
      const [before, after] = [steps[index - 1], steps[index]];
      if (before.workflow_uuid === after.workflow_uuid) gaps.push(after.started - before.completed);
    }
    rows.push({
      label: `${workerCount} DBOS workers (concurrency ${flags.concurrency} each)`,
      wall: lastEnd - enqueueStarted,
      steps: durations,
      gaps,
      latencies: workflows.map((workflow) => workflow.completed - workflow.started),
      cpu: workerCpu,
      extra:
        `enqueue ${ms(enqueueMs)}; runs per worker ${verdict.perWorker.join(' / ')}; ` +
        `database connections ${before} with the workers idle, at most ${peakConnections} while ` +
        `the runs went through (every client of the database, the bench's own included)`,
    });
  } finally {
    await bench.close();
  }
  if (!flags['skip-in-process']) {
    const directory = mkdtempSync(path.join(tmpdir(), 'ideact-bench-inprocess-'));
    const schema = `bench_store_${randomBytes(5).toString('hex')}`;
    try {
      rows.push(await inProcess('in process, in memory', runs, width, async () => ({})));
      rows.push(
        await inProcess('in process, FileRunStore', runs, width, async () => {
          const store = new ideact.FileRunStore({ dir: directory });
          return { store, close: () => store.close() };
        }),
      );
      rows.push(
        await inProcess('in process, PostgresRunStore', runs, width, async () => {
          const store = new ideact.PostgresRunStore({ connectionString: DATABASE_URL, schema });
          return {
            store,
            close: async () => {
              await store.close();
              const admin = new Client({ connectionString: DATABASE_URL });
              await admin.connect();
              await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
              await admin.end();
            },
          };
        }),
      );
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  }
  console.log(
    `\n${runs} runs of 3 turns × 2 Calls (${STEPS_PER_RUN} steps each); in process: ${width} runs at a time; ${machine()}\n`,
  );
  printTable(
    [
      'variant',
      'wall',
      'runs/s',
      'step p50 / p99',
      'gap between steps p50 / p99',
      'run p50 / p99',
      'CPU ms per run',
    ],
    rows.map((row) => [
      row.label,
      `${formatNumber(row.wall / 1000)} s`,
      formatNumber((runs * 1000) / row.wall),
      `${ms(median(row.steps))} / ${ms(p(row.steps, 0.99))}`,
      row.gaps.length === 0 ? '' : `${ms(median(row.gaps))} / ${ms(p(row.gaps, 0.99))}`,
      `${ms(median(row.latencies))} / ${ms(p(row.latencies, 0.99))}`,
      formatNumber(row.cpu / runs),
    ]),
  );
  for (const row of rows) if (row.extra) console.log(`\n${row.label}: ${row.extra}`);
  console.log(`\nchecks: ${verdict.summary}`);
  if (verdict.problems.length > 0) {
    console.log(`DEFECTS:\n- ${verdict.problems.join('\n- ')}`);
    process.exitCode = 1;
  }
}

/** Every run completed once with its output, 14 steps, each Call executed exactly once. */
function checkThroughput(runIds, workflows, steps, effects, workers) {
  const problems = [];
  const byId = new Map(workflows.map((workflow) => [workflow.workflow_uuid, workflow]));
  const notDone = runIds.filter((runId) => byId.get(runId)?.status !== 'SUCCESS');
  if (notDone.length > 0) {
    // How they ended, by status and the start of their error (DBOS's serialized error).
    const endings = new Map();
    for (const runId of notDone) {
      const workflow = byId.get(runId);
      const ending = `${workflow?.status ?? 'no workflow'}: ${String(workflow?.error ?? '').slice(0, 200)}`;
      endings.set(ending, (endings.get(ending) ?? 0) + 1);
    }
    problems.push(
      `${notDone.length} runs did not succeed: ${notDone.slice(0, 5)}; ${[...endings]
        .map(([ending, count]) => `${count} × ${ending}`)
        .join('; ')}`,
    );
  }
  if (workflows.length !== runIds.length) {
    problems.push(`${workflows.length} workflows for ${runIds.length} runs`);
  }
  const outputOf = (workflow) => {
    const parsed = JSON.parse(workflow.output ?? 'null'); // DBOS writes outputs with superjson
    return (parsed?.json ?? parsed)?.output;
  };
  const wrongOutput = workflows.filter((workflow) => outputOf(workflow) !== SHORT_OUTPUT);
  if (wrongOutput.length > 0) {
    problems.push(`${wrongOutput.length} runs with another output, e.g. ${wrongOutput[0].output}`);
  }
  const stepCounts = new Map();
  for (const step of steps) {
    stepCounts.set(step.workflow_uuid, (stepCounts.get(step.workflow_uuid) ?? 0) + 1);
  }
  const oddSteps = runIds.filter((runId) => stepCounts.get(runId) !== STEPS_PER_RUN);
  if (oddSteps.length > 0)
    problems.push(`${oddSteps.length} runs without exactly ${STEPS_PER_RUN} steps`);
  const executions = new Map();
  for (const effect of effects) {
    const key = `${effect.runId} ${effect.callId}`;
    executions.set(key, (executions.get(key) ?? 0) + 1);
  }
  const twice = [...executions].filter(([, count]) => count > 1);
  if (twice.length > 0)
    problems.push(`${twice.length} Calls executed more than once: ${twice[0][0]}`);
  if (executions.size !== runIds.length * 6) {
    problems.push(`${executions.size} distinct Calls executed, ${runIds.length * 6} expected`);
  }
  const perWorker = workers.map(
    (worker) => workflows.filter((workflow) => workflow.executor_id === worker.executorId).length,
  );
  const summary =
    `${workflows.filter((workflow) => workflow.status === 'SUCCESS').length}/${runIds.length} runs SUCCESS with output "${SHORT_OUTPUT}", ` +
    `${steps.length} step rows, ${effects.length} Activity executions for ${executions.size} distinct Calls`;
  return { problems, perWorker, summary };
}

// ---------------------------------------------------------------------------------- recovery

async function recovery() {
  const trials = int(flags.trials);
  const nested = flags.nested;
  console.log(
    `recovery${nested ? ' --nested (the interrupted Call is in a nested run, a child workflow)' : ''}: ${trials} trials · takeover ${flags['takeover-ms'] ?? '5000 (default)'} ms · ` +
      `queue polling ${flags['polling-ms'] ?? '1000 (default)'} ms · ${machine()}`,
  );
  const bench = await benchEnvironment();
  const { environment, queue, query, workers } = bench;
  const system = `"${environment.systemSchema}"`;
  const results = [];
  const problems = [];
  try {
    workers.push(...(await Promise.all([1, 2].map(() => startWorkerProcess(environment)))));
    for (let trial = 0; trial < trials; trial++) {
      while (
        workers.filter(
          (worker) => worker.child.exitCode === null && worker.child.signalCode === null,
        ).length < 2
      ) {
        workers.push(await startWorkerProcess(environment));
      }
      // Let the new worker's first takeover scan and queue poll pass, as on a long-running worker.
      await sleep(1_000 + Math.random() * 1_000);
      const { runId } = await queue.enqueue(
        nested
          ? { task: TASKS.nested, agentName: 'nested', maxTurns: 5 }
          : { task: TASKS.slow, maxTurns: 5 },
      );
      // --nested: the helper's run (a child workflow) runs the instant and the slow Call.
      const callsRunId = nested ? `${runId}-1-0` : runId;
      // The slow Call (second of the first Vessel) has started: its attempt 1 is journaled.
      for (;;) {
        const started = nested
          ? sideEffects(environment.log).some(
              (effect) => effect.tool === 'slow' && effect.runId === callsRunId,
            )
          : (await queue.store.load(runId))?.attempts['1:1'] === 1;
        if (started) break;
        await sleep(20);
      }
      // The workflow whose step is interrupted: the run's, or (--nested) its child's.
      const watched = nested
        ? (
            await query(
              `SELECT workflow_uuid FROM ${system}.workflow_status WHERE parent_workflow_id = $1`,
              [runId],
            )
          )[0].workflow_uuid
        : runId;
      // The Activity sleeps now. Kill at a random point of the takeover interval: the scans' timers
      // run from each worker's start, so a fixed delay would kill at a fixed phase of them.
      await sleep(100 + Math.random() * (int(flags['takeover-ms']) ?? 5_000));
      const [{ executor_id: owner }] = await query(
        `SELECT executor_id FROM ${system}.workflow_status WHERE workflow_uuid = $1`,
        [watched],
      );
      const victim = workers.find((worker) => worker.executorId === owner);
      const killedAt = Date.now();
      victim.child.kill('SIGKILL');
      // Watch the workflow's row: PENDING (victim) → ENQUEUED (taken over) → PENDING (survivor).
      // And the victim's advisory lock (src/engine/worker-liveness.ts: namespace 0x1dea, then
      // hashtext(executorId)): PostgreSQL frees it when it sees the dead process's connection end.
      let reenqueuedAt;
      let lockFreedAt;
      for (;;) {
        const [row] = await query(
          `SELECT status, executor_id,
                  EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND granted
                             AND classid = 7658 AND objid = hashtext($2)::oid AND objsubid = 2) AS locked
             FROM ${system}.workflow_status WHERE workflow_uuid = $1`,
          [watched, owner],
        );
        if (lockFreedAt === undefined && !row.locked) lockFreedAt = Date.now();
        if (reenqueuedAt === undefined && row.status === 'ENQUEUED') reenqueuedAt = Date.now();
        if (row.executor_id !== owner || row.status === 'SUCCESS') break;
        if (Date.now() - killedAt > 60_000) throw new Error(`trial ${trial}: no takeover in 60 s`);
        await sleep(10);
      }
      await victim.exited;
      const result = await queue.wait(runId, { timeoutMs: 60_000 });
      if (
        result.status !== 'completed' ||
        result.output !== (nested ? NESTED_OUTPUT : SLOW_OUTPUT)
      ) {
        problems.push(
          `trial ${trial}: run ${runId} ended ${result.status} ${String(result.output)}`,
        );
      }
      const [workflow] = await query(
        `SELECT executor_id, started_at_epoch_ms::float8 AS dequeued FROM ${system}.workflow_status WHERE workflow_uuid = $1`,
        [watched],
      );
      const steps = await query(
        `SELECT function_id, started_at_epoch_ms::float8 AS started FROM ${system}.operation_outputs
          WHERE workflow_uuid = $1 ORDER BY function_id`,
        [watched],
      );
      const effects = sideEffects(environment.log).filter((effect) => effect.runId === callsRunId);
      const slow = effects.filter((effect) => effect.tool === 'slow');
      const records = effects.filter((effect) => effect.tool === 'record');
      if (records.length !== 1)
        problems.push(`trial ${trial}: the instant Call ran ${records.length} times`);
      if (slow.length !== 2 || slow[1].attempt !== 2 || slow[1].pid === victim.pid) {
        problems.push(`trial ${trial}: slow Call executions ${JSON.stringify(slow)}`);
      }
      if (steps.length !== 4)
        problems.push(`trial ${trial}: ${steps.length} step rows, 4 expected`);
      // Steps 0–1 (the turn with the Actor's report, the instant Call) the victim recorded; step 2 (the
      // slow Call's step it was in) the survivor.
      results.push({
        lockFreed: lockFreedAt === undefined ? undefined : lockFreedAt - killedAt,
        reenqueued: reenqueuedAt === undefined ? undefined : reenqueuedAt - killedAt,
        dequeued: workflow.dequeued - killedAt,
        nextStep: steps[2].started - killedAt,
        callAgain: slow[1] === undefined ? undefined : slow[1].time - killedAt,
        survivor: workflow.executor_id,
      });
      console.log(
        `trial ${trial + 1}: kill → lock freed ${results.at(-1).lockFreed ?? 'n/a'} ms → re-enqueued ${results.at(-1).reenqueued ?? 'n/a'} ms → dequeued ` +
          `${results.at(-1).dequeued} ms → next step ${results.at(-1).nextStep} ms → Call again ${results.at(-1).callAgain} ms`,
      );
    }
  } finally {
    await bench.close();
  }
  const column = (name) =>
    results.map((result) => result[name]).filter((value) => value !== undefined);
  console.log(`\n${trials} trials; ms after the SIGKILL; ${machine()}\n`);
  printTable(
    ['from the SIGKILL to', 'median', 'min', 'max'],
    [
      ["the dead worker's lock is free (PostgreSQL)", 'lockFreed'],
      ['re-enqueued by the other worker (takeover scan)', 'reenqueued'],
      ['dequeued by the other worker (queue poll)', 'dequeued'],
      ["the run's next step starts (replay)", 'nextStep'],
      ['the interrupted Call starts again (attempt 2)', 'callAgain'],
    ].map(([label, name]) => {
      const values = column(name);
      return [label, ms(median(values)), ms(Math.min(...values)), ms(Math.max(...values))];
    }),
  );
  if (problems.length > 0) {
    console.log(`DEFECTS:\n- ${problems.join('\n- ')}`);
    process.exitCode = 1;
  } else {
    console.log(
      `\nchecks: every run completed once with "${nested ? NESTED_OUTPUT : SLOW_OUTPUT}", its instant Call ran once, its slow Call twice (attempt 2 on the survivor)${nested ? ', both in the nested run' : ''}`,
    );
  }
}

// ---------------------------------------------------------------------------------- main

// ---------------------------------------------------------------------------------- idle

/** Connections to the database now (every client, the bench's own included). */
const CONNECTIONS_SQL = `SELECT count(*)::int AS count FROM pg_stat_activity WHERE datname = current_database()`;

/**
 * What idle workers cost: WORKERS worker processes with nothing to run for SECONDS; the database's
 * committed transactions per second (pg_stat_database.xact_commit, every client of the database
 * included: run it on a quiet database), the workers' CPU and their connections.
 */
async function idle() {
  const workerCount = int(flags.workers);
  const seconds = int(flags.seconds);
  console.log(`idle: ${workerCount} workers for ${seconds} s · ${machine()}`);
  const bench = await benchEnvironment();
  const { environment, query, workers } = bench;
  const commits = async () =>
    (
      await query(
        `SELECT xact_commit::float8 AS commits FROM pg_stat_database WHERE datname = current_database()`,
      )
    )[0].commits;
  try {
    await sleep(1_000);
    const [{ count: alone }] = await query(CONNECTIONS_SQL);
    const quietBefore = await commits();
    await sleep(seconds * 1000);
    const quiet = (await commits()) - quietBefore;
    workers.push(
      ...(await Promise.all(
        Array.from({ length: workerCount }, () => startWorkerProcess(environment)),
      )),
    );
    await sleep(3_000); // their start-up queries and first scans
    const [{ count: withWorkers }] = await query(CONNECTIONS_SQL);
    const before = await commits();
    const cpuBefore = await Promise.all(workers.map((worker) => cpuOf(worker.pid)));
    await sleep(seconds * 1000);
    const cpuAfter = await Promise.all(workers.map((worker) => cpuOf(worker.pid)));
    const busy = (await commits()) - before;
    const cpu = cpuAfter.reduce((sum, value, index) => sum + value - cpuBefore[index], 0);
    console.log(
      `
per idle worker: ${formatNumber((busy - quiet) / seconds / workerCount)} transactions/s ` +
        `(database: ${formatNumber(quiet / seconds)}/s without workers, ${formatNumber(busy / seconds)}/s with ${workerCount}), ` +
        `${formatNumber(cpu / seconds / workerCount)} CPU ms/s, ${formatNumber((withWorkers - alone) / workerCount)} connections`,
    );
  } finally {
    await bench.close();
  }
}

/** A process's CPU time so far (user + system, ms), from /proc. */
async function cpuOf(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // clock ticks of 10 ms
}

if (mode === 'worker') await workerChild();
else if (mode === 'idle') await idle();
else if (mode === 'throughput') await throughput();
else if (mode === 'recovery') await recovery();
else {
  console.error(
    'usage: node bench/ideact-workers.mjs throughput|recovery [options] (see the file)',
  );
  process.exit(2);
}
