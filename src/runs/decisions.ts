import type { Call } from '../protocol/call';

/**
 * The decisions a person makes about Calls, as a run's state keeps them (a plan's decisions, a
 * resume's approvals): plain JSON, read by the call pipeline's approval step.
 */

/** One human decision about one Call (R-LOOP-4): run it, run this Call instead, or reject it with a reason. */
export type ConfirmDecision = { approve: true } | { edit: Call } | { reject: string };

/**
 * A person's decision about one Call that awaited approval (issue 18), given by its `callId` to
 * `agent.resume(runId, { decisions })`: run it, reject it (the model sees the reason), or run it with
 * these params instead (the Call's `_` meta-fields are kept).
 */
export type ApprovalDecision =
  { approve: true } | { reject: string } | { edit: Record<string, unknown> };
