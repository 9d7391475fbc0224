import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { RunQueue } from 'ideact';
import { databaseForThisFile } from '../support/test-database';
import { scenarioAgent, TASKS } from './fixtures/worker-scenario';
import {
  sideEffects,
  startWorkerProcess,
  stopWorkerProcess,
  type WorkerEnvironment,
  type WorkerProcess,
} from './worker-processes';

/**
 * Past one queue (issue 31 item 6, docs/workers.md "Capacity"): two tenants in one database, each
 * with a queue, a run-store schema and a DBOS system schema of its own and a worker of its own. Each
 * worker runs its own tenant's runs only, and each tenant's runs, steps and workflows stay in its
 * own schemas.
 */
const db = databaseForThisFile();
let directory: string;

beforeAll(() => {
  directory = mkdtempSync(path.join(tmpdir(), 'ideact-worker-tenants-'));
});
afterAll(() => {
  rmSync(directory, { recursive: true, force: true });
});

describe('two queues on two schemas in one database (issue 31)', () => {
  it('each tenant’s worker runs its own queue’s runs only, kept in its own schemas', async () => {
    const reference = await scenarioAgent(path.join(directory, 'reference.jsonl'), {
      fast: true,
    }).run({ task: TASKS.dataflow });
    expect(reference.stopReason).toBe('output');

    const tenants = ['a', 'b'].map((name) => {
      const environment: WorkerEnvironment = {
        databaseUrl: db.url,
        schema: db.newSchema(),
        systemSchema: db.newSchema(),
        queueName: `tenant-${name}`,
        log: path.join(directory, `tenant-${name}.jsonl`),
      };
      const queue = new RunQueue({
        databaseUrl: environment.databaseUrl,
        schema: environment.schema,
        systemSchema: environment.systemSchema,
        queueName: environment.queueName,
      });
      return { environment, queue, runIds: [] as string[] };
    });
    const workers: WorkerProcess[] = [];
    try {
      for (const tenant of tenants) {
        const worker = await startWorkerProcess(tenant.environment);
        workers.push(worker);
      }
      for (const tenant of tenants) {
        for (let index = 0; index < 3; index++) {
          tenant.runIds.push((await tenant.queue.enqueue({ task: TASKS.dataflow })).runId);
        }
      }
      for (const tenant of tenants) {
        for (const runId of tenant.runIds) {
          expect(await tenant.queue.wait(runId, { timeoutMs: 30_000 })).toMatchObject({
            status: 'completed',
            output: reference.output,
          });
        }
      }
      for (const [index, tenant] of tenants.entries()) {
        const worker = workers[index] as WorkerProcess;
        // Its Activities ran in its own worker, for its own runs only.
        const effects = sideEffects(tenant.environment.log);
        expect(effects.length).toBeGreaterThan(0);
        expect(new Set(effects.map((line) => line.pid))).toEqual(new Set([worker.pid]));
        expect(new Set(effects.map((line) => line.runId))).toEqual(new Set(tenant.runIds));
        // Its store holds its runs only; DBOS's system schema its workflows only, run by its worker.
        expect((await tenant.queue.store.list()).map((run) => run.runId).sort()).toEqual(
          [...tenant.runIds].sort(),
        );
        const workflows = await db.query<{ workflow_uuid: string; executor_id: string }>(
          `SELECT workflow_uuid, executor_id FROM "${tenant.environment.systemSchema}".workflow_status`,
        );
        expect(workflows.map((row) => row.workflow_uuid).sort()).toEqual([...tenant.runIds].sort());
        expect(new Set(workflows.map((row) => row.executor_id))).toEqual(
          new Set([worker.executorId]),
        );
      }
    } finally {
      await Promise.all(tenants.map((tenant) => tenant.queue.close()));
      await Promise.all(workers.map((worker) => stopWorkerProcess(worker)));
    }
  }, 60_000);
});
