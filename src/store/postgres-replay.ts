import { commitEntry, endedCallIds, replayJournal, type ReplayResult } from '../runs/run-journal';
import { cloneJson } from '../protocol/merge-patch';
import type { AgentState } from '../runs/agent-state';
import type { JournalEntry, OpenCall, RunStatus } from '../runs/run-store';

/**
 * How the PostgresRunStore rebuilds a run from rows: its latest checkpoint plus the journal entries
 * after it, replayed by the runtime's own `replayJournal` (so every store replays alike), with the
 * Calls a checkpoint left open carried over.
 */

/** A checkpoint row: the state after every entry up to `coversSeq` (0: the state at create). */
export interface CheckpointRow {
  coversSeq: number;
  state: AgentState;
  attempts: Record<string, number>;
  openCalls: OpenCall[];
  status: RunStatus;
}

/**
 * The run after `entries` (in order, all after the checkpoint) are applied to `checkpoint` (its
 * state is changed in place). Calls open at the checkpoint stay open unless a later entry ended or
 * restarted them, or their result node is in the state.
 */
export function replayFromCheckpoint(
  checkpoint: CheckpointRow,
  entries: readonly JournalEntry[],
): ReplayResult {
  const result = replayJournal(checkpoint.state, entries, {
    status: checkpoint.status,
    attempts: checkpoint.attempts,
  });
  const touched = new Set<string>();
  for (const entry of entries) {
    if (entry.type === 'call-start' || entry.type === 'call-end') touched.add(entry.callId);
  }
  const answered = endedCallIds(result.state);
  const carried = checkpoint.openCalls.filter(
    (call) => !touched.has(call.callId) && !answered.has(call.callId),
  );
  return { ...result, openCalls: [...carried, ...result.openCalls] };
}

/** The stop reason a commit entry records (`nextStep.args.reason` once done), else null. */
export function stopReasonOf(entry: JournalEntry): string | null {
  if (entry.type !== 'commit' || entry.nextStep.module !== 'done') return null;
  return entry.nextStep.args.reason;
}

/**
 * A state as `create` stores it: its next step without what can be recomputed (the journal's rule,
 * from `commitEntry`); nodes as given, so nested states it already holds stay inline.
 */
export function storedInitialState(state: AgentState): AgentState {
  const { nextStep } = commitEntry(state, state.nodes.length);
  return { ...(cloneJson(state) as AgentState), nextStep };
}
