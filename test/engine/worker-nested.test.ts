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
 * Nested runs are child workflows (issue 18 item 4, R-MOD-5): a module Call's nested agent runs as
 * a DBOS child workflow of its parent's, its run stored with the module it runs, so another worker
 * rebuilds its agent and completes it after the worker running it is SIGKILLed.
 */
const db = databaseForThisFile();
let directory: string;

beforeAll(() => {
  directory = mkdtempSync(path.join(tmpdir(), 'ideact-worker-nested-'));
});
afterAll(() => {
  rmSync(directory, { recursive: true, force: true });
});

interface WorkflowRow {
  workflow_uuid: string;
  status: string;
  name: string;
  parent_workflow_id: string | null;
  executor_id: string;
}

interface StepRow {
  function_id: number;
  function_name: string;
  output: string | null;
  child_workflow_id: string | null;
  error: string | null;
}

describe('nested runs as child workflows (issue 18)', () => {
  it('R-MOD-5 a nested agent runs as a child workflow; its worker SIGKILLed mid-nested-Activity, the other worker completes parent and child once, output as uninterrupted', async () => {
    const reference = scenarioAgent(path.join(directory, 'uninterrupted.jsonl'), { fast: true });
    const uninterrupted = await reference.run({ task: TASKS.nested });
    expect(uninterrupted.output).toBe('recorded x, helped[recorded n1, slept n2]');

    const log = path.join(directory, 'effects.jsonl');
    const { environment, queue, workers, close } = await startTwoWorkers(
      db,
      'nested-kill-test',
      log,
    );
    try {
      const { runId } = await queue.enqueue({ task: TASKS.nested });
      const nestedRunId = `${runId}-1-0`;

      // Inside the nested run, n1 is recorded and the slow n2 runs: kill the worker that runs it.
      await waitUntil(async () => {
        const nested = await queue.store.load(nestedRunId);
        const recorded = (nested?.state.nodes ?? []).flatMap((node) =>
          node.metadata.source === undefined ? [] : [node.metadata.source.callIndex],
        );
        return recorded.includes(0) && nested?.attempts['3:1'] === 1;
      }, 'n1 recorded in the nested run while n2 runs');
      const { victim, survivor } = killWorkerRunning(log, 'n2', workers);
      expect(await victim.exited).toBe('SIGKILL');

      const result = await queue.wait(runId, { timeoutMs: 30_000 });
      await expectCompletedAfterKill(result, [survivor], db, environment);
      expect(result.status).toBe('completed');
      expect(result.output).toBe(uninterrupted.output);

      // Every Call, nested or not, completed once; n2, cut short by the kill, ran again on the
      // survivor with the same callId in the same nested run and the next attempt.
      const effects = sideEffects(log);
      const done = effects.filter((line) => line.event === 'done');
      expect(
        done.map((line) => `${line.name} ${line.runId} ${line.callId} #${line.attempt}`).sort(),
      ).toEqual([`n1 ${nestedRunId} 3:0 #1`, `n2 ${nestedRunId} 3:1 #2`, `x ${runId} 1:1 #1`]);
      expect(
        effects
          .filter((line) => line.event === 'start' && line.name === 'n2')
          .map((line) => [line.pid, line.attempt]),
      ).toEqual([
        [victim.pid, 1],
        [survivor.pid, 2],
      ]);

      // The store: the nested run is a run of its own, linked to its parent's module Call, with the
      // module it runs; the parent's result node names it.
      const nested = await queue.store.load(nestedRunId);
      expect(nested?.status).toBe('completed');
      expect(nested?.header).toMatchObject({ parentRunId: runId, parentCallId: '1:0' });
      expect(nested?.header.nestedModule?.id).toBe(path.join(directory, 'helper.json'));
      expect(nested?.header.nestedModule).toMatchObject({ depth: 1, toolName: 'helper' });
      const parent = await queue.store.load(runId);
      const helperResult = parent?.state.nodes.find(
        (node) => node.message.type === 'result' && node.message.call._tool === 'helper',
      );
      expect(helperResult?.metadata.nested?.map((state) => state.runId)).toEqual([nestedRunId]);
      expect(await queue.store.list({ parentRunId: runId })).toEqual([
        expect.objectContaining({ runId: nestedRunId, status: 'completed' }),
      ]);

      // DBOS: the nested run is the parent workflow's child, both finished by the survivor.
      const system = `"${environment.systemSchema}"`;
      const workflows = await db.query<WorkflowRow>(
        `SELECT workflow_uuid, status, name, parent_workflow_id, executor_id
           FROM ${system}.workflow_status ORDER BY created_at`,
      );
      expect(workflows).toEqual([
        expect.objectContaining({
          workflow_uuid: runId,
          status: 'SUCCESS',
          name: 'ideact-run',
          parent_workflow_id: null,
        }),
        expect.objectContaining({
          status: 'SUCCESS',
          name: 'ideact-run',
          parent_workflow_id: runId,
          executor_id: survivor.executorId,
        }),
      ]);
      const child = workflows[1] as WorkflowRow;
      const stepsOf = (workflowId: string) =>
        db.query<StepRow>(
          `SELECT function_id, function_name, output, child_workflow_id, error
             FROM ${system}.operation_outputs WHERE workflow_uuid = $1 ORDER BY function_id`,
          [workflowId],
        );
      // The parent: its turn, which reports the Actor step naming the module Call (issue 31: one
      // step), a step per Call, then the `nested-run` step that hands the helper's run off, and the
      // child workflow it started.
      const parentSteps = await stepsOf(runId);
      expect(parentSteps.slice(0, 5).map((step) => step.function_name)).toEqual([
        'agent-step',
        'call 1:0',
        'call 1:1',
        'nested-run',
        'ideact-run',
      ]);
      expect(JSON.parse(parentSteps[0]?.output ?? 'null').json).toEqual({
        kind: 'actor',
        nodeId: 1,
        callIds: ['1:0', '1:1'],
        moduleCallIds: ['1:0'],
      });
      expect(JSON.parse(parentSteps[3]?.output ?? 'null').json).toEqual({
        callId: '1:0',
        runId: nestedRunId,
      });
      expect(parentSteps[4]?.child_workflow_id).toBe(child.workflow_uuid);
      expect(parentSteps.every((step) => step.error === null)).toBe(true);
      // The child: the nested agent's own steps, one per model turn (the last one runs the answer's
      // Vessel, which has no Calls) and per Call.
      const childSteps = await stepsOf(child.workflow_uuid);
      expect(childSteps.map((step) => step.function_name)).toEqual([
        'agent-step',
        'call 3:0',
        'call 3:1',
        'agent-step',
      ]);
      expect(childSteps.every((step) => step.error === null)).toBe(true);
    } finally {
      await close();
    }
  }, 60_000);
});
