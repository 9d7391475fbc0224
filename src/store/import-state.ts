import type { AgentState } from '../runs/agent-state';
import { assertValidState } from '../runs/state-tree';
import { newRunId } from '../runs/run-context';
import type { RunHeader, RunOrigin, RunStore } from '../runs/run-store';

/** Options of {@link importState}. */
export interface ImportStateOptions {
  /** The run id to store it under (default: the state's `runId`, else a new id). */
  runId?: string;
  /** The creation time recorded in the run's header (default: now). */
  createdAt?: string;
  /** Where the run's agent came from (`RunHeader.origin`), recorded in the top-level run's header. */
  origin?: RunOrigin;
}

/**
 * Stores a whole agent state (e.g. an older state file, which held the whole state as JSON) as a run
 * of `store`, its checkpoint: nested agents' states become runs of their own linked by parent id
 * (stored first, so the parent never names a missing run). Resolves to the run id; the state is not changed.
 */
export async function importState(
  store: RunStore,
  state: AgentState,
  options: ImportStateOptions = {},
): Promise<string> {
  assertValidState(state);
  const copy = structuredClone(state);
  copy.runId = options.runId ?? copy.runId ?? newRunId();
  const createdAt = options.createdAt ?? new Date().toISOString();
  await importRun(store, copy, {
    runId: copy.runId,
    createdAt,
    ...(options.origin === undefined ? {} : { origin: options.origin }),
  });
  return copy.runId;
}

/** Imports the nested runs of `state`, then `state` itself under `header`. */
async function importRun(store: RunStore, state: AgentState, header: RunHeader): Promise<void> {
  state.runId = header.runId;
  for (const node of state.nodes) {
    const nested = node.metadata.nested;
    if (!Array.isArray(nested)) continue;
    const source = node.metadata.source;
    for (const [index, child] of nested.entries()) {
      // Older states kept nested runs without ids: derived ones keep a re-import stable.
      const runId = child.runId ?? `${header.runId}-${node.id}-${index}`;
      await importRun(store, child, {
        runId,
        parentRunId: header.runId,
        ...(source === undefined ? {} : { parentCallId: `${source.nodeId}:${source.callIndex}` }),
        ...(child.task === undefined ? {} : { task: child.task }),
        createdAt: header.createdAt,
      });
    }
  }
  await store.create(
    { ...header, ...(state.task === undefined ? {} : { task: state.task }) },
    state,
  );
}
