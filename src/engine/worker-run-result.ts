import type { FailedCall } from '../agent/agent-options';
import type { AgentState, AgentUsage, StopReason } from '../runs/agent-state';
import { interruptionsOf, type Interruption } from '../agent/approvals';
import { collectFailedCalls } from '../agent/failed-calls';
import { statusOf } from '../runs/run-journal';
import type { RunStatus } from '../runs/run-store';

/**
 * What a run executed by a worker ended with, as plain JSON: the DBOS workflow's output, what
 * `waitForRun` resolves to and what `ideact runs show --json` prints. Unlike an AgentResult it holds
 * no state (the store has it: `store.load(runId)`).
 */
export interface WorkerRunResult<TOutput = unknown> {
  runId: string;
  /** `completed`, `awaiting_approval`, `planned`, `stopped`, `failed`, `cancelled` (or `running`). */
  status: RunStatus;
  /** Why the run stopped; absent while it runs (and for a run cancelled between steps). */
  stopReason?: StopReason;
  /** The final output (null when the run ended without one). */
  output: TOutput | null;
  usage: AgentUsage;
  /** Calls whose result is an error, as in `AgentResult.failedCalls`. */
  failedCalls: FailedCall[];
  /** For `awaiting_approval`: the Calls to decide (`ideact runs resume ID --approve CALLID`). */
  interruptions?: Interruption[];
  /** For stop reason `error`: what failed. */
  error?: { code: string; message: string };
}

/**
 * The result of a run from its state, with the status the store recorded (a `cancelled` status
 * entry overrides what the state says).
 */
export function workerRunResult<TOutput = unknown>(
  runId: string,
  state: AgentState,
  status: RunStatus = statusOf(state),
): WorkerRunResult<TOutput> {
  const done = state.nextStep.module === 'done' ? state.nextStep.args : undefined;
  const result: WorkerRunResult<TOutput> = {
    runId,
    status,
    output: (done?.output ?? null) as TOutput | null,
    usage: state.usage,
    failedCalls: collectFailedCalls(state),
  };
  if (done !== undefined) result.stopReason = done.reason;
  if (done?.error !== undefined) result.error = { ...done.error };
  if (done?.reason === 'awaiting_approval') result.interruptions = interruptionsOf(state);
  return result;
}
