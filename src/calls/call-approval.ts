import type { Call } from '../protocol/call';
import type { ToolSchema } from '../protocol/tool-schema';
import type { ApprovalDecision, ConfirmDecision } from '../runs/decisions';

export type { ApprovalDecision, ConfirmDecision } from '../runs/decisions';

/** Whether a Call waits for approval, besides Tools whose schema says `needsApproval: true`. */
export type NeedsApproval = (call: Call) => boolean;

/** What an entry point is asked when a Call needs approval: the Call, its Tool and its params. */
export interface ApprovalRequest {
  /** The Call's id (the same its events and result carry). */
  callId: string;
  /** The Tool's name (`_tool`). */
  toolName: string;
  /** The Tool's schema (its description says what a person approves). */
  tool: ToolSchema;
  /** The params as they will run (`†` references resolved, validated). */
  params: Record<string, unknown>;
  /** The Call as written (references unresolved, meta-fields included). */
  call: Call;
}

/**
 * What an {@link Approver} answers: a decision, or `{ hold }` when the person is asked later (the
 * agent loop stops the run `awaiting_approval`; the Call does not run and has no result yet).
 */
export type ApprovalAnswer = ConfirmDecision | { hold: true };

/** How an entry point asks a person about a Call that needs approval (MCP: elicitation; the loop: hold). */
export type Approver = (request: ApprovalRequest) => ApprovalAnswer | Promise<ApprovalAnswer>;

/**
 * How a Call that needs approval is approved: `'caller'` (code that calls `executor.call()` or
 * `agent.call()` is its own approver: the Call runs), or an {@link Approver} that asks a person.
 */
export type CallApproval = 'caller' | Approver;

/** True when the Tool's schema itself says its Calls wait for a person (`needsApproval: true`). */
export function toolNeedsApproval(tool: ToolSchema): boolean {
  return (tool as { needsApproval?: unknown }).needsApproval === true;
}

/**
 * THE approval policy (DESIGN §8): a Call needs approval when its Tool says so (`needsApproval: true`
 * in its schema, `@Tool({ needsApproval })`) or the predicate (the container's, the agent's) returns
 * true for it. The predicate gets a copy of the Call, so it cannot change it.
 */
export function callNeedsApproval(
  tool: ToolSchema,
  call: Call,
  predicate?: NeedsApproval,
): boolean {
  if (toolNeedsApproval(tool)) return true;
  return predicate !== undefined && predicate(structuredClone(call)) === true;
}

/** The Call a decision runs: the edit when the decision is one, else the Call as it was. */
export function decidedCall(call: Call, decision: ConfirmDecision | undefined): Call {
  return decision !== undefined && 'edit' in decision ? decision.edit : call;
}

/** The decision for an approval decision given by callId: an edit keeps the Call's `_` meta-fields. */
export function toConfirmDecision(call: Call, decision: ApprovalDecision): ConfirmDecision {
  if ('edit' in decision) {
    const meta = Object.fromEntries(Object.entries(call).filter(([key]) => key.startsWith('_')));
    return { edit: { ...decision.edit, ...meta } as Call };
  }
  return decision;
}
