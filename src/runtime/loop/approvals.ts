import { InvalidConfirmationError } from '../../errors/invalid-confirmation.error';
import type { Call } from '../../protocol/call';
import type { ToolSchema } from '../../protocol/tool-schema';
import type { AgentState } from './agent-state';
import type { ConfirmDecision } from './confirm';
import { callParams } from './call-params';
import type { ApprovalDecision } from './approval-decision';

export type { ApprovalDecision } from './approval-decision';

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

/** Whether a Call waits for approval: its Tool says so (`needsApproval: true`) or the agent's predicate does. */
export type NeedsApproval = (call: Call) => boolean;

/**
 * The approval rule of a run: Tools whose schema has `needsApproval: true`, plus the agent's
 * `needsApproval` predicate; undefined when no Call can need approval (nothing to check).
 */
export function approvalRule(
  tools: readonly ToolSchema[],
  predicate: NeedsApproval | undefined,
): NeedsApproval | undefined {
  const flagged = new Set<string>();
  for (const tool of tools) {
    const name = tool.properties._tool?.const;
    if ((tool as { needsApproval?: unknown }).needsApproval === true && typeof name === 'string') {
      flagged.add(name);
    }
  }
  if (flagged.size === 0 && predicate === undefined) return undefined;
  return (call) => flagged.has(String(call._tool)) || predicate?.(structuredClone(call)) === true;
}

/** The Actor's decision for an approval decision: an edit keeps the Call's `_` meta-fields. */
export function toConfirmDecision(call: Call, decision: ApprovalDecision): ConfirmDecision {
  if ('edit' in decision) {
    const meta = Object.fromEntries(Object.entries(call).filter(([key]) => key.startsWith('_')));
    return { edit: { ...decision.edit, ...meta } as Call };
  }
  return decision;
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
        reason: `no Call "${callId}" awaits approval (awaiting: ${awaiting.join(', ') || 'none'})`,
      });
    }
    if (!isDecision(decision)) {
      throw new InvalidConfirmationError({
        index,
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
