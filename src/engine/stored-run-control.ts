import { RunFinishedError } from '../errors/run-finished.error';
import { RunNotFoundError } from '../errors/run-not-found.error';
import type { ApprovalDecision } from '../calls/call-approval';
import { recordDecisions } from '../agent/approvals';
import { commitEntry } from '../runs/run-journal';
import type { RunStore, StoredRun } from '../runs/run-store';

/**
 * Changes to a stored run made from outside any process that runs it (issue 18, `ideact runs
 * cancel|resume`): journal entries appended to the store, read alike by every store and worker.
 */

/** The run as stored; a RunNotFoundError when the store has none. */
export async function loadStoredRun(store: RunStore, runId: string): Promise<StoredRun> {
  const stored = await store.load(runId);
  if (stored === undefined) throw new RunNotFoundError({ runId, location: 'the run store' });
  return stored;
}

/**
 * Marks a run `cancelled` (a `status` journal entry): a worker stops it before its next step (a
 * step running now is aborted when its DBOS workflow is cancelled too: `RunQueue.cancel`). A
 * completed run cannot be cancelled (RunFinishedError); cancelling twice changes nothing.
 */
export async function cancelStoredRun(store: RunStore, runId: string): Promise<StoredRun> {
  const stored = await loadStoredRun(store, runId);
  if (stored.status === 'completed') {
    throw new RunFinishedError({ runId, action: 'cancel', stopReason: stopReasonOf(stored) });
  }
  if (stored.status === 'cancelled') return stored;
  await store.append(runId, [{ type: 'status', status: 'cancelled', time: now() }]);
  return { ...stored, status: 'cancelled' };
}

/** What reopening a run may change: decisions for the Calls it awaits, raised limits. */
export interface ReopenOptions {
  /** By callId: `{ approve: true }`, `{ reject: 'reason' }` or `{ edit: params }` (awaiting_approval). */
  decisions?: Record<string, ApprovalDecision>;
  maxTurns?: number;
  maxTokens?: number;
  maxTimeMs?: number;
}

/**
 * Makes a stopped or cancelled run runnable again in its store, for a worker to continue: the
 * decisions are recorded, the pending step becomes the next one, limits given here replace the
 * stored ones; one commit entry (status `running`). A completed run is a RunFinishedError.
 */
export async function reopenStoredRun(
  store: RunStore,
  runId: string,
  options: ReopenOptions = {},
): Promise<StoredRun> {
  const stored = await loadStoredRun(store, runId);
  const state = stored.state;
  if (stored.status === 'completed') {
    throw new RunFinishedError({ runId, action: 'resume', stopReason: stopReasonOf(stored) });
  }
  if (options.decisions !== undefined) recordDecisions(state, options.decisions);
  const step = state.nextStep;
  if (step.module === 'done') {
    if (step.args.pending === undefined) {
      throw new RunFinishedError({ runId, action: 'resume', stopReason: step.args.reason });
    }
    state.nextStep = step.args.pending;
  }
  if (options.maxTurns !== undefined) state.limits.maxTurns = options.maxTurns;
  if (options.maxTokens !== undefined) state.limits.maxTokens = options.maxTokens;
  if (options.maxTimeMs !== undefined) state.limits.maxTimeMs = options.maxTimeMs;
  const entry = commitEntry(state, state.nodes.length);
  await store.append(runId, [entry]);
  return { ...stored, status: entry.status, state };
}

function stopReasonOf(stored: StoredRun): string | undefined {
  const step = stored.state.nextStep;
  return step.module === 'done' ? step.args.reason : undefined;
}

function now(): string {
  return new Date().toISOString();
}
