import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { Client } from 'pg';
import { RunQueue } from 'ideact';
import { scenarioAgent, TASKS } from './fixtures/worker-scenario';
import {
  pgCtl,
  removeOwnCluster,
  startOwnCluster,
  type OwnCluster,
} from '../support/own-postgres-cluster';
import {
  sideEffects,
  startWorkerProcess,
  stopWorkerProcess,
  waitUntil,
  type WorkerEnvironment,
  type WorkerProcess,
} from './worker-processes';

/**
 * Workers across a restart of PostgreSQL (issue 31 item 7), on a cluster of this file's own started
 * by scripts/pg-start.mjs (the code of `npm run pg:start`) on a port of its own, so no other test's
 * database restarts. Two supervised workers (`superviseWorker`, as `ideact worker` runs) run two runs;
 * PostgreSQL restarts while their slow Calls run; both workers lose their locks, stop and start again
 * as new executors, which take the runs over: every run completes once, no completed Call runs again.
 */
let cluster: OwnCluster | undefined;
let directory: string;

beforeAll(async () => {
  directory = mkdtempSync(path.join(tmpdir(), 'ideact-worker-pg-restart-'));
  cluster = await startOwnCluster();
}, 150_000);

afterAll(() => {
  removeOwnCluster(cluster);
  rmSync(directory, { recursive: true, force: true });
});

describe('workers across a restart of PostgreSQL (issue 31)', () => {
  it('PostgreSQL restarts mid-Activity: the workers start again, every run completes once, no completed Call runs again', async () => {
    const record = cluster as OwnCluster;
    const reference = await scenarioAgent(path.join(directory, 'reference.jsonl'), {
      fast: true,
    }).run({ task: TASKS.kill });
    const log = path.join(directory, 'effects.jsonl');
    const environment: WorkerEnvironment = {
      databaseUrl: record.url,
      schema: 'restart_store',
      systemSchema: 'restart_dbos',
      queueName: 'restart-test',
      log,
      restart: true,
    };
    const queue = new RunQueue({
      databaseUrl: record.url,
      schema: environment.schema,
      systemSchema: environment.systemSchema,
      queueName: environment.queueName,
    });
    const workers: WorkerProcess[] = [];
    try {
      for (let index = 0; index < 2; index++) workers.push(await startWorkerProcess(environment));
      const runIds = [
        (await queue.enqueue({ task: TASKS.kill })).runId,
        (await queue.enqueue({ task: TASKS.kill })).runId,
      ];
      // Both runs' slow Call c runs (a and b recorded): restart PostgreSQL under them.
      await waitUntil(async () => {
        for (const runId of runIds) {
          const stored = await queue.store.load(runId);
          if (stored?.attempts['1:2'] !== 1) return false;
        }
        return true;
      }, 'both slow Calls running');
      pgCtl(record, ['-D', record.dataDir, '-m', 'fast', '-w', '-t', '60', 'restart']);

      for (const runId of runIds) {
        const result = await queue.wait(runId, { timeoutMs: 40_000 });
        expect(result).toMatchObject({ status: 'completed', output: reference.output });
      }
      // Each Call completed once per run: a, b and d never ran again; c, cut short, ran again.
      const effects = sideEffects(log);
      for (const runId of runIds) {
        const done = effects.filter((line) => line.runId === runId && line.event === 'done');
        expect(done.map((line) => `${line.name} ${line.callId}`).sort()).toEqual([
          'a 1:0',
          'b 1:1',
          'c 1:2',
          'd 5:0',
        ]);
        const starts = effects.filter((line) => line.runId === runId && line.event === 'start');
        expect(starts.filter((line) => line.name !== 'c').map((line) => line.attempt)).toEqual([
          1, 1, 1,
        ]);
      }
      // One workflow per run, completed (its first execution, taken over by a new executor).
      const admin = new Client({ connectionString: record.url });
      await admin.connect();
      try {
        const rows = await admin.query<{ workflow_uuid: string; status: string }>(
          `SELECT workflow_uuid, status FROM "${environment.systemSchema}".workflow_status ORDER BY workflow_uuid`,
        );
        expect(rows.rows).toEqual(
          [...runIds].sort().map((runId) => ({ workflow_uuid: runId, status: 'SUCCESS' })),
        );
      } finally {
        await admin.end();
      }
    } catch (error) {
      // What the workers said (their restarts, the errors they reported) tells why.
      throw new Error(
        `${String(error)}\n${workers.map((worker) => `worker ${worker.pid}:\n${worker.stderr()}`).join('\n')}`,
      );
    } finally {
      await queue.close().catch(() => undefined);
      await Promise.all(workers.map((worker) => stopWorkerProcess(worker)));
    }
  }, 120_000);
});
