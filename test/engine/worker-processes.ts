import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { RunQueue } from 'ideact';
import type { TestDatabase } from '../support/test-database';
import type { SideEffect } from './fixtures/worker-scenario';

/** Repository root (children run there, so tsx and the sources resolve). */
const ROOT = path.resolve(__dirname, '..', '..');

/** A worker child process (test/engine/fixtures/worker-child.ts) and what it said. */
export interface WorkerProcess {
  child: ChildProcess;
  pid: number;
  executorId: string;
  /** Everything it wrote to stderr so far. */
  stderr(): string;
  /** Resolves when it exited, with its signal or exit code. */
  exited: Promise<NodeJS.Signals | number | null>;
}

/** Where a worker child connects: the test database, its schemas and a queue of the test's own. */
export interface WorkerEnvironment {
  databaseUrl: string;
  schema: string;
  systemSchema: string;
  queueName: string;
  log: string;
  /** The child starts its worker again when it stops on its own (`superviseWorker`). */
  restart?: boolean;
}

/** Starts a worker child and resolves once it consumes the queue (or rejects with its stderr). */
export function startWorkerProcess(environment: WorkerEnvironment): Promise<WorkerProcess> {
  const child = spawn(
    process.execPath,
    // A deprecation (pg's overlapping queries, seen once beside a stall) names its caller.
    ['--trace-deprecation', '--import', 'tsx', path.join(__dirname, 'fixtures', 'worker-child.ts')],
    {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        IDEACT_WORKER_DATABASE_URL: environment.databaseUrl,
        IDEACT_WORKER_SCHEMA: environment.schema,
        IDEACT_WORKER_SYSTEM_SCHEMA: environment.systemSchema,
        IDEACT_WORKER_QUEUE: environment.queueName,
        IDEACT_WORKER_LOG: environment.log,
        IDEACT_WORKER_RESTART: environment.restart === true ? '1' : '',
      },
    },
  );
  let stdout = '';
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) =>
    child.on('exit', (code, signal) => resolve(signal ?? code)),
  );
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const line = stdout.split('\n').find((text) => text.startsWith('{"ready"'));
      if (line === undefined) return;
      const ready = JSON.parse(line) as { ready: string; pid: number };
      resolve({ child, pid: ready.pid, executorId: ready.ready, stderr: () => stderr, exited });
    });
    void exited.then((how) =>
      reject(new Error(`the worker child exited (${String(how)}) before it was ready:\n${stderr}`)),
    );
  });
}

/** Stops a worker child: SIGTERM (it stops its worker), SIGKILL if it has not exited after 5 s. */
export async function stopWorkerProcess(worker: WorkerProcess | undefined): Promise<void> {
  if (worker === undefined || worker.child.exitCode !== null || worker.child.signalCode !== null) {
    return;
  }
  worker.child.kill('SIGTERM');
  const timer = setTimeout(() => worker.child.kill('SIGKILL'), 5_000);
  await worker.exited;
  clearTimeout(timer);
}

/** Polls `condition` every 50 ms until it holds (or fails after `timeoutMs`). */
export async function waitUntil(
  condition: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 20_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The side-effect log's lines (none before the first Activity ran). */
export function sideEffects(log: string): SideEffect[] {
  if (!existsSync(log)) return [];
  return readFileSync(log, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as SideEffect);
}

/** Two worker processes sharing a queue of their own, the RunQueue that feeds it, and its teardown. */
export interface TwoWorkers {
  environment: WorkerEnvironment;
  queue: RunQueue;
  workers: WorkerProcess[];
  /** Closes the queue and stops the workers still running. */
  close(): Promise<void>;
}

/** Starts two worker processes on queue `queueName` (a fresh DBOS system schema); Activities log to `log`. */
export async function startTwoWorkers(
  database: TestDatabase,
  queueName: string,
  log: string,
): Promise<TwoWorkers> {
  const environment: WorkerEnvironment = {
    databaseUrl: database.url,
    schema: database.schema,
    systemSchema: database.newSchema(),
    queueName,
    log,
  };
  const queue = new RunQueue({
    databaseUrl: environment.databaseUrl,
    schema: environment.schema,
    systemSchema: environment.systemSchema,
    queueName,
  });
  const started = await Promise.allSettled([1, 2].map(() => startWorkerProcess(environment)));
  const workers = started.flatMap((outcome) =>
    outcome.status === 'fulfilled' ? [outcome.value] : [],
  );
  const close = async (): Promise<void> => {
    await queue.close();
    await Promise.all(workers.map((worker) => stopWorkerProcess(worker)));
  };
  const failed = started.find((outcome) => outcome.status === 'rejected');
  if (failed !== undefined) {
    await close();
    throw failed.reason;
  }
  return { environment, queue, workers, close };
}

/** The worker a kill test SIGKILLed, the other one, and when. */
export interface Killed {
  victim: WorkerProcess;
  survivor: WorkerProcess;
  killedAt: number;
}

/** SIGKILLs the worker whose Activity named `name` started (the side-effect log says which). */
export function killWorkerRunning(log: string, name: string, workers: WorkerProcess[]): Killed {
  const first = sideEffects(log).find((line) => line.name === name);
  const victim = workers.find((worker) => worker.pid === first?.pid);
  const survivor = workers.find((worker) => worker !== victim);
  if (victim === undefined || survivor === undefined) {
    throw new Error(`no worker of ${workers.length} ran the Activity named ${name}`);
  }
  const killedAt = Date.now();
  victim.child.kill('SIGKILL');
  return { victim, survivor, killedAt };
}

/**
 * Fails with what the surviving workers wrote to stderr (DBOS's retries, failed takeover scans)
 * and with DBOS's and the store's rows of the runs when the run did not complete after a kill, so a
 * rare stall in CI says where it stalled.
 */
export async function expectCompletedAfterKill(
  result: { status: string },
  survivors: WorkerProcess[],
  database: TestDatabase,
  environment: WorkerEnvironment,
): Promise<void> {
  if (result.status === 'completed') return;
  const said = survivors.map(
    (worker) => `worker ${worker.pid}:\n${worker.stderr() || '(nothing)'}`,
  );
  const rows = await stalledRows(database, environment).catch(
    (error: unknown) => `(the rows could not be read: ${String(error)})`,
  );
  throw new Error(
    `the run is ${result.status}, not completed, after the kill; the survivors' stderr:\n${said.join('\n')}\n${rows}`,
  );
}

/** DBOS's workflows and steps and the store's runs, as text, for a failure message. */
async function stalledRows(
  database: TestDatabase,
  environment: WorkerEnvironment,
): Promise<string> {
  const system = `"${environment.systemSchema}"`;
  const workflows = await database.query(
    `SELECT workflow_uuid, status, queue_name, executor_id, parent_workflow_id, recovery_attempts,
            application_version, created_at, updated_at
       FROM ${system}.workflow_status ORDER BY created_at`,
  );
  const steps = await database.query(
    `SELECT workflow_uuid, function_id, function_name, child_workflow_id, error IS NOT NULL AS failed
       FROM ${system}.operation_outputs ORDER BY workflow_uuid, function_id`,
  );
  const runs = await database.query(
    `SELECT run_id, status, stop_reason, updated_at FROM "${environment.schema}".runs ORDER BY created_at`,
  );
  // Who holds or waits for a worker lock (a takeover takes the gone worker's lock first).
  const locks = await database.query(
    `SELECT l.pid, l.objid, l.granted, a.state, a.wait_event, left(a.query, 80) AS query
       FROM pg_locks l LEFT JOIN pg_stat_activity a ON a.pid = l.pid
      WHERE l.locktype = 'advisory' AND l.classid = 7658 ORDER BY l.objid`,
  );
  return [
    `advisory locks of the workers: ${JSON.stringify(locks)}`,
    `DBOS workflows: ${JSON.stringify(workflows)}`,
    `DBOS steps: ${JSON.stringify(steps)}`,
    `store runs: ${JSON.stringify(runs)}`,
  ].join('\n');
}
