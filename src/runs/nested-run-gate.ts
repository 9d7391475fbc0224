import type { AgentState } from './agent-state';
import type { NestedModule } from './run-store';

/** What a nested agent hands to a {@link NestedRunGate}: its run, ready to be created in the store. */
export interface NestedRunRequest {
  /** The nested run's id: the same for every attempt of its module Call, so a retry continues it. */
  runId: string;
  /** The run whose module Call starts it. */
  parentRunId: string;
  /** The module Call (in the parent) that starts it. */
  parentCallId: string;
  /** The module it runs (stored in its header, so another worker can rebuild its agent). */
  module: NestedModule;
  /** Its initial state (the module's clean room, output schema, limits and chain). */
  state: AgentState;
  /** Aborted when the module Call is cancelled. */
  signal?: AbortSignal;
}

/**
 * Runs a nested agent's run somewhere else than in-process: a worker starts it as a DBOS child
 * workflow (issue 18) and resolves to the nested run's final state, or to undefined when it does not
 * take this Call (the nested agent then runs in-process). @internal
 */
export type NestedRunGate = (request: NestedRunRequest) => Promise<AgentState | undefined>;

/**
 * The id of the nested run a module Call starts under a worker, derived from the parent run and the
 * Call (`run_ab12-3-0` for Call `3:0`), so a retried Call finds its nested run again. @internal
 */
export function nestedRunId(parentRunId: string, callId: string): string {
  return `${parentRunId}-${callId.replace(/:/g, '-')}`;
}
