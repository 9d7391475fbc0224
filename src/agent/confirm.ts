import type { Call } from '../protocol/call';
import type { Message } from '../protocol/message';
import {
  InvalidConfirmationError,
  type DecisionSource,
} from '../errors/invalid-confirmation.error';

import type { ConfirmDecision } from '../calls/call-approval';

export type { ConfirmDecision } from '../calls/call-approval';

/**
 * Human-in-the-loop hook: sees the Calls the Actor is about to run (and their context) and returns one
 * decision per Call, in order. A rejection's reason becomes the Call's `result` error.
 */
export type ConfirmCalls = (
  calls: Call[],
  context: Message[],
) => Promise<ConfirmDecision[]> | ConfirmDecision[];

/** Checks the hook's answer: exactly one well-formed decision per Call. */
export function assertDecisions(
  decisions: unknown,
  count: number,
  source: DecisionSource = 'confirm',
): asserts decisions is ConfirmDecision[] {
  if (!Array.isArray(decisions) || decisions.length !== count) {
    throw new InvalidConfirmationError({
      index: -1,
      source,
      reason: `expected an array of ${count} decisions, got ${Array.isArray(decisions) ? `${decisions.length}` : typeof decisions}`,
    });
  }
  decisions.forEach((decision: unknown, index) => {
    const record =
      typeof decision === 'object' && decision !== null
        ? (decision as Record<string, unknown>)
        : undefined;
    const valid =
      record !== undefined &&
      (record.approve === true ||
        typeof record.reject === 'string' ||
        (typeof record.edit === 'object' &&
          record.edit !== null &&
          typeof (record.edit as Call)._tool === 'string'));
    if (!valid) {
      throw new InvalidConfirmationError({
        index,
        source,
        reason: `got ${JSON.stringify(decision)}`,
      });
    }
  });
}
