import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import {
  FileRunStore,
  InvalidConfirmationError,
  RunFinishedError,
  cancelStoredRun,
  reopenStoredRun,
} from 'ideact';
import { scenarioAgent, TASKS } from './fixtures/worker-scenario';

/**
 * Changes to a stored run from outside the process that runs it (issue 18, `ideact runs cancel |
 * resume`): journal entries that every store replays alike (here a FileRunStore, no server).
 */
let directory: string;
let store: FileRunStore;
beforeEach(() => {
  directory = mkdtempSync(path.join(tmpdir(), 'ideact-run-control-'));
  store = new FileRunStore({ dir: path.join(directory, 'runs') });
});
afterEach(async () => {
  await store.close();
  rmSync(directory, { recursive: true, force: true });
});

const log = () => path.join(directory, 'effects.jsonl');

describe('cancelStoredRun / reopenStoredRun', () => {
  it('cancel marks the run cancelled (twice changes nothing); reopen records decisions and makes the pending step next', async () => {
    const agent = scenarioAgent(log(), { fast: true });
    const stopped = await agent.run({ task: TASKS.approval, store });
    expect(stopped.stopReason).toBe('awaiting_approval');

    expect((await cancelStoredRun(store, stopped.runId)).status).toBe('cancelled');
    expect((await cancelStoredRun(store, stopped.runId)).status).toBe('cancelled');
    expect((await store.load(stopped.runId))?.status).toBe('cancelled');

    await expect(
      reopenStoredRun(store, stopped.runId, { decisions: { '9:9': { approve: true } } }),
    ).rejects.toBeInstanceOf(InvalidConfirmationError);
    const reopened = await reopenStoredRun(store, stopped.runId, {
      decisions: { '1:0': { reject: 'not today' } },
      maxTurns: 5,
    });
    expect(reopened.status).toBe('running');
    const loaded = await store.load(stopped.runId);
    expect(loaded?.status).toBe('running');
    expect(loaded?.state.limits.maxTurns).toBe(5);
    expect(loaded?.state.nextStep).toEqual({
      module: 'actor',
      args: { nodeId: 1, approvals: { '1:0': { reject: 'not today' } } },
    });

    // Any process with the agent goes on from there: the rejection is what the model sees.
    const finished = await agent.resume(stopped.runId, { store });
    expect(finished.stopReason).toBe('output');
    expect(finished.failedCalls).toEqual([
      expect.objectContaining({ callId: '1:0', code: 'CALL_REJECTED' }),
    ]);
  });

  it('a completed run can be neither cancelled nor reopened (RunFinishedError)', async () => {
    const agent = scenarioAgent(log(), { fast: true });
    const done = await agent.run({ task: TASKS.slow, store });
    expect(done.stopReason).toBe('output');
    await expect(cancelStoredRun(store, done.runId)).rejects.toBeInstanceOf(RunFinishedError);
    await expect(reopenStoredRun(store, done.runId)).rejects.toBeInstanceOf(RunFinishedError);
  });
});
