/**
 * The floor under ideact's workers (issue 31 item 1), on a real PostgreSQL (IDEACT_TEST_DATABASE_URL,
 * default postgres://postgres@127.0.0.1:5432/test). Fresh schemas per invocation, dropped at the end.
 *
 *   node bench/dbos-floor.mjs dbos [--runs 1000] [--workers 2] [--concurrency 4] [--polling-ms 1000] [--contracts]
 *                                [--profile DIR]
 *   node bench/dbos-floor.mjs pg [--seconds 5] [--clients 1,4,8]
 *
 * dbos: the short run of bench/ideact-workers.mjs written directly on DBOS, no ideact: a workflow of 8
 *   steps (4 "model turns" returning the scripted answer, 4 "Actor steps" running the answer's Calls,
 *   the `record` Activity: one line appended to a side-effect log), through one queue that WORKERS
 *   processes consume with `workerConcurrency` CONCURRENCY and DBOS's queue poll POLLING-MS (DBOS's
 *   default 1 s when omitted). Runs/s from the first enqueue to the last workflow's end, CPU per run
 *   of the worker processes, step and run latencies, as the ideact bench reports them.
 * dbos --contracts: the same runs shaped by the two contracts ideact's workers keep, still without
 *   ideact's code: every Activity call is a DBOS step of its own (issue 18: 4 model steps and 6 Call
 *   steps, 10 per run), and the run journal a run store must hold (issue 18's idempotency contract):
 *   the run's row and first checkpoint written before the run is enqueued, the run read by its first
 *   step, per model turn one append of its commits, per Call an append of its start before the
 *   Activity and one of its result after it (1 + T + 2C = 16 appends per short run), each sent through
 *   raw `pg` in PostgresRunStore's statement (the run's row updated and the entries inserted in one
 *   statement, prepared; its text and the tables' migration taken from the build, so run `npm run
 *   build` first) with entries of the sizes a short run writes. What ideact's own code costs is
 *   the ratio of its workers to this.
 * pg: raw PostgreSQL insert/commit throughput for the journal's row shape (`run_id text`, `entry
 *   jsonb` of a commit entry's size, a bigserial key): CLIENTS connections each inserting one row per
 *   autocommit statement, then 8 rows per statement, for SECONDS each.
 * `worker` (internal): one DBOS worker process of the `dbos` mode.
 */
import { randomBytes } from 'node:crypto';
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { Buffer } from 'node:buffer';
import { parseArgs } from 'node:util';
import { ROOT } from './lib/ideact-package.mjs';
import {
  createJournalTables,
  ENTRY_BYTES,
  journalStore,
  modelTurnEntries,
  sizedEntry,
} from './lib/floor-journal.mjs';
import { formatNumber, median, quantile } from './lib/stats.mjs';
import { startWorkerChild, stopWorkerChild } from './lib/worker-process.mjs';

const require = createRequire(import.meta.url);
const { Client } = require(path.join(ROOT, 'node_modules', 'pg'));
const SCRIPT = fileURLToPath(import.meta.url);
const DATABASE_URL =
  process.env.IDEACT_TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const QUEUE = 'floor-runs';
const WORKFLOW = 'floor-run';
/** Turns of 2 Calls, then the answer: 4 model steps and 4 Actor steps. */
const TURNS = 3;
const OUTPUT = `recorded ${TURNS * 2}`;
/** Journal entries of a --contracts run: 3 commits per model turn, the done commit, 2 per Call. */
const JOURNAL_ENTRIES = (TURNS + 1) * 3 + 1 + TURNS * 2 * 2;

const { positionals, values: flags } = parseArgs({
  allowPositionals: true,
  options: {
    runs: { type: 'string', default: '1000' },
    workers: { type: 'string', default: '2' },
    concurrency: { type: 'string', default: '4' },
    'polling-ms': { type: 'string' },
    seconds: { type: 'string', default: '5' },
    clients: { type: 'string', default: '1,4,8' },
    contracts: { type: 'boolean', default: false },
    profile: { type: 'string' },
  },
});
const mode = positionals[0];

function machine() {
  return `${cpus().length} cores · Node ${process.version} · load average ${loadavg()
    .map((value) => value.toFixed(2))
    .join(' ')}`;
}

function cpuMs() {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

// ---------------------------------------------------------------------------------- worker child

async function workerChild() {
  const env = JSON.parse(process.env.FLOOR_WORKER);
  const { DBOS } = require(path.join(ROOT, 'node_modules', '@dbos-inc', 'dbos-sdk'));
  // What a scripted model turn returns: 2 Calls per turn, then the answer.
  const model = (turn) =>
    turn < TURNS
      ? {
          calls: [
            { _tool: 'record', name: `t${turn}a` },
            { _tool: 'record', name: `t${turn}b` },
          ],
          output: null,
        }
      : { calls: [], output: OUTPUT };
  const record = (runId, callId, name) => {
    appendFileSync(
      env.log,
      `${JSON.stringify({ tool: 'record', runId, callId, pid: process.pid, time: Date.now() })}\n`,
    );
    return { recorded: name };
  };
  // --contracts: a step per Activity call and the run journal (see the header).
  const journal =
    env.storeSchema === undefined ? undefined : journalStore(DATABASE_URL, env.storeSchema);
  const contractRun = async (runId) => {
    let output = null;
    for (let turn = 0; output === null; turn++) {
      const answer = await DBOS.runStep(
        async () => {
          if (turn === 0) await journal.loadRun(runId);
          const result = model(turn);
          await journal.append(runId, modelTurnEntries(result.output !== null));
          return result;
        },
        { name: 'model' },
      );
      const results = await Promise.all(
        answer.calls.map((call, index) =>
          DBOS.runStep(
            async () => {
              const callId = `${turn}:${index}`;
              await journal.append(runId, [sizedEntry('start', ENTRY_BYTES.start, { callId })]);
              const result = record(runId, callId, call.name);
              await journal.append(runId, [
                sizedEntry('commit', ENTRY_BYTES.result, { status: 'running', callId }),
              ]);
              return result;
            },
            { name: `call ${turn}:${index}` },
          ),
        ),
      );
      if (answer.output !== null) output = answer.output;
      else if (results.length !== answer.calls.length) throw new Error('lost a Call');
    }
    return { output };
  };
  const workflow = DBOS.registerWorkflow(
    journal !== undefined
      ? contractRun
      : async (runId) => {
          let output = null;
          for (let turn = 0; output === null; turn++) {
            const answer = await DBOS.runStep(async () => model(turn), { name: 'model' });
            const results = await DBOS.runStep(
              async () =>
                answer.calls.map((call, index) => record(runId, `${turn}:${index}`, call.name)),
              { name: 'actor' },
            );
            if (answer.output !== null) output = answer.output;
            else if (results.length !== answer.calls.length) throw new Error('lost a Call');
          }
          return { output };
        },
    { name: WORKFLOW },
  );
  void workflow;
  DBOS.setConfig({
    name: 'floor',
    systemDatabaseUrl: DATABASE_URL,
    systemDatabaseSchemaName: env.systemSchema,
    executorID: `floor-${process.pid}`,
    applicationVersion: 'floor-1',
    logLevel: 'warn',
    listenQueues: [QUEUE],
  });
  await DBOS.launch();
  await DBOS.registerQueue(QUEUE, {
    workerConcurrency: env.concurrency,
    ...(env.pollingMs === undefined ? {} : { minPollingIntervalMs: env.pollingMs }),
    onConflict: 'always_update',
  });
  process.once('SIGTERM', () => {
    void DBOS.shutdown().then(async () => {
      await journal?.close();
      process.stdout.write(`${JSON.stringify({ cpu: cpuMs() })}\n`);
      process.exit(0);
    });
  });
  process.stdout.write(`${JSON.stringify({ ready: `floor-${process.pid}`, cpu: cpuMs() })}\n`);
}

function startWorkerProcess(environment) {
  // --profile DIR: each worker writes a V8 CPU profile there (bench/profile-summary.mjs reads them).
  const nodeArgs =
    flags.profile === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${flags.profile}`];
  return startWorkerChild({
    script: SCRIPT,
    cwd: ROOT,
    variable: 'FLOOR_WORKER',
    environment,
    nodeArgs,
    label: 'a floor worker',
  });
}

async function dbosFloor() {
  const runs = Number(flags.runs);
  const workerCount = Number(flags.workers);
  const concurrency = Number(flags.concurrency);
  const pollingMs = flags['polling-ms'] === undefined ? undefined : Number(flags['polling-ms']);
  const contracts = flags.contracts;
  const variant = contracts ? 'DBOS floor with the contracts' : 'DBOS floor';
  const stepsPerRun = contracts ? 4 + TURNS * 2 : 8;
  console.log(
    `${variant}: ${runs} runs · ${workerCount} workers × concurrency ${concurrency} · queue poll ${pollingMs ?? '1000 (DBOS default)'} ms · ${machine()}`,
  );
  const { DBOS, DBOSClient } = require(path.join(ROOT, 'node_modules', '@dbos-inc', 'dbos-sdk'));
  const suffix = randomBytes(5).toString('hex');
  const systemSchema = `floor_dbos_${suffix}`;
  const storeSchema = contracts ? `floor_store_${suffix}` : undefined;
  const directory = mkdtempSync(path.join(tmpdir(), 'ideact-floor-'));
  const log = path.join(directory, 'effects.jsonl');
  const admin = new Client({ connectionString: DATABASE_URL });
  await admin.connect();
  const query = async (text, parameters) => (await admin.query(text, parameters)).rows;
  await DBOS.migrate(DATABASE_URL, { schemaName: systemSchema });
  const workers = [];
  let client;
  let journal;
  try {
    if (storeSchema !== undefined) {
      await createJournalTables(admin, storeSchema);
      journal = journalStore(DATABASE_URL, storeSchema);
    }
    const environment = { systemSchema, storeSchema, log, concurrency, pollingMs };
    // One at a time: DBOS's queue registration races on a fresh schema.
    for (let index = 0; index < workerCount; index++) {
      workers.push(await startWorkerProcess(environment));
    }
    client = await DBOSClient.create({
      systemDatabaseUrl: DATABASE_URL,
      systemDatabaseSchemaName: systemSchema,
      applicationName: 'floor',
    });
    const started = Date.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < runs) {
          const index = next++;
          // A run's row and first checkpoint are written before it is enqueued (ideact's enqueueRun).
          await journal?.createRun(`floor-${suffix}-${index}`, 'record 6 names');
          await client.enqueue(
            {
              queueName: QUEUE,
              workflowName: WORKFLOW,
              workflowID: `floor-${suffix}-${index}`,
              appVersion: 'floor-1',
            },
            `floor-${suffix}-${index}`,
          );
        }
      }),
    );
    const enqueueMs = Date.now() - started;
    const system = `"${systemSchema}"`;
    for (;;) {
      const [{ open }] = await query(
        `SELECT count(*)::int AS open FROM ${system}.workflow_status WHERE status IN ('ENQUEUED','PENDING')`,
      );
      if (open === 0) break;
      await sleep(100);
    }
    const workflows = await query(
      `SELECT ws.status, COALESCE(wo.output, ws.output) AS output, ws.started_at_epoch_ms::float8 AS started,
              COALESCE(ws.completed_at, ws.updated_at)::float8 AS completed
         FROM ${system}.workflow_status ws
         LEFT JOIN ${system}.workflow_output wo ON wo.workflow_uuid = ws.workflow_uuid`,
    );
    const steps = await query(
      `SELECT workflow_uuid, started_at_epoch_ms::float8 AS started, completed_at_epoch_ms::float8 AS completed
         FROM ${system}.operation_outputs ORDER BY workflow_uuid, function_id`,
    );
    // 4 turns of 3 commits, the done commit, and a start and a result per Call.
    const journalRows =
      storeSchema === undefined
        ? undefined
        : (await query(`SELECT count(*)::int AS n FROM "${storeSchema}".journal_entries`))[0].n;
    await Promise.all(workers.map((worker) => stopWorkerChild(worker)));
    const cpu = workers.reduce((sum, worker) => sum + (worker.cpu() ?? Number.NaN), 0);
    const lastEnd = Math.max(...workflows.map((workflow) => workflow.completed));
    const effects = existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean) : [];
    const ok = workflows.filter(
      (workflow) => workflow.status === 'SUCCESS' && String(workflow.output).includes(OUTPUT),
    ).length;
    const durations = steps.map((step) => step.completed - step.started);
    const latencies = workflows.map((workflow) => workflow.completed - workflow.started);
    const wall = lastEnd - started;
    console.log(`\n${machine()}\n`);
    console.log(
      '| variant | wall | runs/s | ms per run (wall ÷ runs) | step p50 / p99 | run p50 / p99 | CPU ms per run |',
    );
    console.log('| --- | --- | --- | --- | --- | --- | --- |');
    console.log(
      `| ${variant}, ${workerCount} workers × ${concurrency}, poll ${pollingMs ?? 1000} ms | ${formatNumber(wall / 1000)} s | ${formatNumber((runs * 1000) / wall)} | ${formatNumber(wall / runs)} | ${formatNumber(median(durations))} / ${formatNumber(quantile(durations, 0.99))} ms | ${formatNumber(median(latencies))} / ${formatNumber(quantile(latencies, 0.99))} ms | ${formatNumber(cpu / runs)} |`,
    );
    console.log(
      `\nchecks: ${ok}/${runs} runs SUCCESS with "${OUTPUT}", ${steps.length} step rows (${runs * stepsPerRun} expected), ${effects.length} Activity executions (${runs * 6} expected)${journalRows === undefined ? '' : `, ${journalRows} journal entries (${runs * JOURNAL_ENTRIES} expected)`}; enqueue ${enqueueMs} ms`,
    );
    if (ok !== runs || steps.length !== runs * stepsPerRun) process.exitCode = 1;
    if (journalRows !== undefined && journalRows !== runs * JOURNAL_ENTRIES) process.exitCode = 1;
  } finally {
    await Promise.all(workers.map((worker) => stopWorkerChild(worker)));
    await client?.destroy().catch(() => undefined);
    await journal?.close();
    await admin.query(`DROP SCHEMA IF EXISTS "${systemSchema}" CASCADE`);
    if (storeSchema !== undefined)
      await admin.query(`DROP SCHEMA IF EXISTS "${storeSchema}" CASCADE`);
    await admin.end();
    rmSync(directory, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------- raw PostgreSQL

/** A commit journal entry of the short run's size (what PostgresRunStore appends per module). */
function commitEntry() {
  return {
    type: 'commit',
    time: new Date().toISOString(),
    status: 'running',
    nodes: [
      {
        id: 3,
        message: { type: 'vessel', calls: [{ _tool: 'record', name: 't0a' }], output: null },
        metadata: {},
      },
    ],
    nextStep: { module: 'actor', args: { nodeId: 3 } },
    usage: { inputTokens: 120, outputTokens: 30 },
  };
}

async function pgFloor() {
  const seconds = Number(flags.seconds);
  const clientCounts = flags.clients.split(',').map(Number);
  const schema = `floor_pg_${randomBytes(5).toString('hex')}`;
  const admin = new Client({ connectionString: DATABASE_URL });
  await admin.connect();
  const entry = JSON.stringify(commitEntry());
  console.log(
    `raw PostgreSQL: journal rows (run_id text, entry jsonb of ${Buffer.byteLength(entry)} bytes) · ${seconds} s per row · ${machine()}\n`,
  );
  await admin.query(`CREATE SCHEMA "${schema}"`);
  await admin.query(
    `CREATE TABLE "${schema}".journal_entries (seq bigserial PRIMARY KEY, run_id text NOT NULL, entry jsonb NOT NULL)`,
  );
  await admin.query(`CREATE INDEX ON "${schema}".journal_entries (run_id, seq)`);
  const rows = [];
  try {
    for (const perStatement of [1, 8]) {
      for (const count of clientCounts) {
        const clients = await Promise.all(
          Array.from({ length: count }, async () => {
            const client = new Client({ connectionString: DATABASE_URL });
            await client.connect();
            return client;
          }),
        );
        const values = Array.from(
          { length: perStatement },
          (_, index) => `($1, $${index + 2}::jsonb)`,
        );
        const text = `INSERT INTO "${schema}".journal_entries (run_id, entry) VALUES ${values.join(', ')}`;
        const name = `floor-insert-${perStatement}`;
        let commits = 0;
        const latencies = [];
        const deadline = performance.now() + seconds * 1000;
        const started = performance.now();
        await Promise.all(
          clients.map(async (client, index) => {
            const runId = `run-${index}`;
            const parameters = [runId, ...Array.from({ length: perStatement }, () => entry)];
            while (performance.now() < deadline) {
              const before = performance.now();
              await client.query({ name, text, values: parameters });
              latencies.push(performance.now() - before);
              commits++;
            }
          }),
        );
        const wall = (performance.now() - started) / 1000;
        await Promise.all(clients.map((client) => client.end()));
        rows.push([
          perStatement,
          count,
          formatNumber(commits / wall),
          formatNumber((commits * perStatement) / wall),
          `${formatNumber(median(latencies))} / ${formatNumber(quantile(latencies, 0.99))} ms`,
        ]);
      }
    }
  } finally {
    await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await admin.end();
  }
  console.log('| rows per statement | clients | commits/s | rows/s | commit p50 / p99 |');
  console.log('| --- | --- | --- | --- | --- |');
  for (const row of rows) console.log(`| ${row.join(' | ')} |`);
  console.log(`\n${machine()}`);
}

if (mode === 'worker') await workerChild();
else if (mode === 'dbos') await dbosFloor();
else if (mode === 'pg') await pgFloor();
else {
  console.error('usage: node bench/dbos-floor.mjs dbos|pg [options] (see the file)');
  process.exit(2);
}
