import { ActivityFailedError } from '../errors/activity-failed.error';
import { IdeactError } from '../errors/ideact-error';
import type { FailedCall } from './agent-options';
import type { AgentState } from '../runs/agent-state';

/**
 * Every Call of `state` whose result carries an error, nested agents' Calls included (listed before
 * the module Call that ran them), read from the state itself so a resumed run reports earlier
 * failures too. Result nodes of the run's final output check (no source Call) are left out.
 */
export function collectFailedCalls(state: AgentState): FailedCall[] {
  const failed: FailedCall[] = [];
  collectInto(failed, state, '');
  return failed;
}

function collectInto(failed: FailedCall[], state: AgentState, prefix: string): void {
  for (const node of state.nodes) {
    // Nested states are kept as recorded, not checked like the top-level state: read them warily.
    const source = node?.metadata?.source;
    if (node?.message?.type !== 'result' || source === undefined) continue;
    const nested = node.metadata.nested;
    const error = node.message.error;
    // Most results neither failed nor ran a nested agent: no id to spell for them.
    if (error === undefined && !Array.isArray(nested)) continue;
    const callId = `${prefix}${source.nodeId}:${source.callIndex}`;
    if (Array.isArray(nested)) {
      nested.forEach((run, index) => {
        if (typeof run !== 'object' || run === null || !Array.isArray(run.nodes)) return;
        collectInto(failed, run, nested.length > 1 ? `${callId}#${index}/` : `${callId}/`);
      });
    }
    if (error === undefined) continue;
    const entry: FailedCall = {
      callId,
      tool: String(node.message.call?._tool),
      code: error.code,
      message: error.message,
    };
    if (typeof node.metadata.errorStack === 'string') entry.stack = node.metadata.errorStack;
    if (Array.isArray(state.chain) && state.chain.length > 0) entry.chain = [...state.chain];
    failed.push(entry);
  }
}

/**
 * The stack worth keeping for a failed Call: that of the first error in its `cause` chain that is
 * not an ideact error (the Activity's TypeError, an I/O error), if any. @internal
 */
export function originalStack(error: IdeactError): string | undefined {
  let current: unknown = error;
  for (let hops = 0; hops < 16 && IdeactError.isInstance(current); hops++) {
    current = current.cause;
  }
  if (current instanceof Error && typeof current.stack === 'string') return current.stack;
  return undefined;
}

/**
 * True for an Activity's own bug: an ActivityFailedError wrapping an error that is not an ideact
 * error. `activityErrors: 'throw'` ends the run on these. @internal
 */
export function isActivityBug(error: unknown): error is ActivityFailedError {
  return ActivityFailedError.isInstance(error) && !IdeactError.isInstance(error.cause);
}
