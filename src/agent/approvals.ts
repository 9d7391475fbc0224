import { InvalidConfirmationError } from '../errors/invalid-confirmation.error';
import type { AgentState } from '../runs/agent-state';
import { callParams } from './call-params';
import type { ApprovalDecision } from '../calls/call-approval';

export type { ApprovalDecision, NeedsApproval } from '../calls/call-approval';

/** A Call the run stopped for (stop reason `awaiting_approval`): what a person decides about. */
export interface Interruption {
  /** Give the decision under this id. */
  callId: string;
  tool: string;
  /** The params as the model wrote them (references unresolved). */
  params: Record<string, unknown>;
  /** Why the model made the Call (`_reasoningForCall`), when it said. */
  reasoning?: string;
}

/** The Calls a run awaiting approval stopped for (from its state). */
export function interruptionsOf(state: AgentState): Interruption[] {
  const done = state.nextStep;
  if (done.module !== 'done' || done.args.pending?.module !== 'actor') return [];
  const node = state.nodes[done.args.pending.args.nodeId];
  if (node?.message.type !== 'vessel') return [];
  const calls = node.message.calls;
  return (done.args.awaiting ?? []).flatMap((callId) => {
    const call = calls[Number(callId.slice(callId.indexOf(':') + 1))];
    if (call === undefined) return [];
    const interruption: Interruption = {
      callId,
      tool: String(call._tool),
      params: callParams(call),
    };
    if (typeof call._reasoningForCall === 'string') interruption.reasoning = call._reasoningForCall;
    return [interruption];
  });
}

/**
 * Stores `decisions` (by callId) with a run awaiting approval, for its Actor to apply when resumed.
 * Every id must name a Call the run awaits; a typed error lists the ones it does.
 */
export function recordDecisions(
  state: AgentState,
  decisions: Readonly<Record<string, ApprovalDecision>>,
): void {
  const done = state.nextStep;
  const pending = done.module === 'done' ? done.args.pending : undefined;
  const awaiting = done.module === 'done' ? (done.args.awaiting ?? []) : [];
  Object.entries(decisions).forEach(([callId, decision], index) => {
    if (!awaiting.includes(callId)) {
      throw new InvalidConfirmationError({
        index,
        source: 'decisions',
        reason: `no Call "${callId}" awaits approval (awaiting: ${awaiting.join(', ') || 'none'})`,
      });
    }
    if (!isDecision(decision)) {
      throw new InvalidConfirmationError({
        index,
        source: 'decisions',
        reason: `the decision for "${callId}" must be { approve: true }, { reject: 'reason' } or { edit: params }, got ${JSON.stringify(decision)}`,
      });
    }
  });
  if (pending?.module !== 'actor') return;
  pending.args.approvals = { ...pending.args.approvals, ...structuredClone(decisions) };
}

function isDecision(value: unknown): value is ApprovalDecision {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return (
    record.approve === true ||
    typeof record.reject === 'string' ||
    (typeof record.edit === 'object' && record.edit !== null && !Array.isArray(record.edit))
  );
}
