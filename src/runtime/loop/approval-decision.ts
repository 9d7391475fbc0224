/**
 * A person's decision about one Call that awaited approval (issue 18), given by its `callId` to
 * `agent.resume(runId, { decisions })`: run it, reject it (the model sees the reason), or run it with
 * these params instead (the Call's `_` meta-fields are kept).
 */
export type ApprovalDecision =
  { approve: true } | { reject: string } | { edit: Record<string, unknown> };
