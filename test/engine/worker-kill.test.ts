import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { databaseForThisFile } from '../support/test-database';
import { scenarioAgent, TASKS } from './fixtures/worker-scenario';
import {
  expectCompletedAfterKill,
  killWorkerRunning,
  sideEffects,
  startTwoWorkers,
  waitUntil,
} from './worker-processes';

/**
 * Workers on DBOS (issue 18 item 4), with real worker processes on the real database: two workers
 * share one queue, the one running the run is SIGKILLed in the middle of a slow Activity, the
 * other takes the run over, and the run completes once, with the output of an uninterrupted run.
 */
const db = databaseForThisFile();
let directory: string;

beforeAll(() => {
  directory = mkdtempSync(path.join(tmpdir(), 'ideact-worker-kill-'));
});
afterAll(() => {
  rmSync(directory, { recursive: true, force: true });
});

describe('two worker processes on one queue (issue 18)', () => {
  it('a worker SIGKILLed mid-Activity: the other completes the run once, output as uninterrupted, no completed Call re-executed, steps checkpointed in DBOS', async () => {
    const reference = scenarioAgent(path.join(directory, 'uninterrupted.jsonl'), { fast: true });
    const uninterrupted = await reference.run({ task: TASKS.kill });
    expect(uninterrupted.output).toBe('recorded a, recorded b, recorded d, slept c');

    const log = path.join(directory, 'effects.jsonl');
    const { environment, queue, workers, close } = await startTwoWorkers(db, 'kill-test', log);
    try {
      const { runId, workflowId } = await queue.enqueue({ task: TASKS.kill });
      expect(workflowId).toBe(runId);

      // The slow Call c runs, a and b are recorded in the store: kill the worker that runs c.
      await waitUntil(async () => {
        const stored = await queue.store.load(runId);
        const recorded = (stored?.state.nodes ?? []).flatMap((node) =>
          node.metadata.source === undefined ? [] : [node.metadata.source.callIndex],
        );
        return recorded.includes(0) && recorded.includes(1) && stored?.attempts['1:2'] === 1;
      }, 'a and b recorded while c runs');
      const { victim, survivor, killedAt } = killWorkerRunning(log, 'c', workers);
      expect(await victim.exited).toBe('SIGKILL');

      const result = await queue.wait(runId, { timeoutMs: 30_000 });
      await expectCompletedAfterKill(result, [survivor], db, environment);
      expect(result.status).toBe('completed');
      expect(result.output).toBe(uninterrupted.output);

      // Side effects: every Call completed once; only c, cut short by the kill, started twice,
      // with the same callId and the next attempt, on the survivor.
      const effects = sideEffects(log);
      const done = effects.filter((line) => line.event === 'done');
      expect(done.map((line) => `${line.name} ${line.callId} #${line.attempt}`).sort()).toEqual([
        'a 1:0 #1',
        'b 1:1 #1',
        'c 1:2 #2',
        'd 5:0 #1',
      ]);
      const starts = effects.filter((line) => line.event === 'start');
      expect(
        starts.filter((line) => line.name === 'c').map((line) => [line.pid, line.attempt]),
      ).toEqual([
        [victim.pid, 1],
        [survivor.pid, 2],
      ]);
      expect(starts.filter((line) => line.name !== 'c')).toHaveLength(3);
      expect(done.every((line) => line.runId === runId)).toBe(true);

      // DBOS's system tables: one workflow, finished by the survivor, with a row per agent step.
      const system = `"${environment.systemSchema}"`;
      const workflows = await db.query<{
        status: string;
        executor_id: string;
        recovery_attempts: string;
      }>(
        `SELECT status, executor_id, recovery_attempts FROM ${system}.workflow_status WHERE workflow_uuid = $1`,
        [runId],
      );
      expect(workflows).toEqual([
        expect.objectContaining({ status: 'SUCCESS', executor_id: survivor.executorId }),
      ]);
      const steps = await db.query<{
        function_id: number;
        function_name: string;
        output: string;
        error: string | null;
        started_at_epoch_ms: string;
        completed_at_epoch_ms: string;
      }>(
        `SELECT function_id, function_name, output, error, started_at_epoch_ms, completed_at_epoch_ms
           FROM ${system}.operation_outputs
          WHERE workflow_uuid = $1 ORDER BY function_id`,
        [runId],
      );
      // A DBOS step per model turn (Prompter, Generator, Discriminator) that reports the Actor's
      // Vessel it ends at (issue 31: no step of its own), then one per Call (reserved in index order,
      // so a replay numbers them alike), each recorded once and none failed: the steps before the
      // kill by the victim, the Call step the kill interrupted (c, 1:2) and all after it by the
      // survivor. The last turn runs the answer's Vessel (no Calls) in its own step.
      const outcomes = steps.map((step) => JSON.parse(step.output).json as unknown);
      expect(outcomes).toEqual([
        { kind: 'actor', nodeId: 1, callIds: ['1:0', '1:1', '1:2'], moduleCallIds: [] },
        '1:0',
        '1:1',
        '1:2',
        { kind: 'actor', nodeId: 5, callIds: ['5:0'], moduleCallIds: [] },
        '5:0',
        {
          kind: 'done',
          result: expect.objectContaining({ status: 'completed', output: uninterrupted.output }),
        },
      ]);
      expect(steps.map((step) => step.function_name)).toEqual([
        'agent-step',
        'call 1:0',
        'call 1:1',
        'call 1:2',
        'agent-step',
        'call 5:0',
        'agent-step',
      ]);
      expect(steps.map((step) => step.function_id)).toEqual([0, 1, 2, 3, 4, 5, 6]);
      expect(steps.every((step) => step.error === null)).toBe(true);
      expect(Number(steps[0]?.completed_at_epoch_ms)).toBeLessThan(killedAt);
      expect(Number(steps[3]?.started_at_epoch_ms)).toBeGreaterThanOrEqual(killedAt);

      // The run store: completed exactly once; c's journal shows attempt 1, then attempt 2.
      const journal = await db.query<{
        entry: { type: string; status?: string; callId?: string; attempt?: number };
      }>(
        `SELECT entry FROM "${environment.schema}".journal_entries WHERE run_id = $1 ORDER BY seq`,
        [runId],
      );
      const entries = journal.map((row) => row.entry);
      expect(
        entries.filter((entry) => entry.type === 'commit' && entry.status === 'completed'),
      ).toHaveLength(1);
      expect(
        entries
          .filter((entry) => entry.type === 'call-start' && entry.callId === '1:2')
          .map((entry) => entry.attempt),
      ).toEqual([1, 2]);
    } finally {
      await close();
    }
    // Two worker processes start (tsx, DBOS) inside the budget: the full suite on Node 24 once took
    // over 60 s here while the test passes alone in 6 s; the run's own wait stays 30 s.
  }, 120_000);
});
