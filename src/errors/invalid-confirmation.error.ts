import { ConfigurationError } from './configuration.error';

/** Where invalid decisions came from: the `confirm` hook, `decisions` by callId, or a plan's decisions. */
export type DecisionSource = 'confirm' | 'decisions' | 'plan';

/**
 * Decisions about Calls that cannot be applied (R-LOOP-4): the `confirm` hook returned something
 * other than one decision per Call, `decisions` given by callId (`agent.resume(runId, { decisions })`,
 * the playground, `ideact runs resume`) name a Call that does not await approval or are malformed,
 * or `agent.executePlan(result, { decisions })` got the wrong number of them.
 */
export class InvalidConfirmationError extends ConfigurationError {
  static override readonly code = 'INVALID_CONFIRMATION';

  /** Index of the offending decision, or -1 when the array itself is wrong. */
  readonly index: number;
  /** Who gave the decisions. */
  readonly source: DecisionSource;

  constructor(options: {
    index: number;
    reason: string;
    source?: DecisionSource;
    cause?: unknown;
  }) {
    const source = options.source ?? 'confirm';
    super({ message: messageOf(source, options.index, options.reason), cause: options.cause });
    this.index = options.index;
    this.source = source;
  }
}

function messageOf(source: DecisionSource, index: number, reason: string): string {
  const where = index < 0 ? 'the returned value' : `decision ${index}`;
  switch (source) {
    case 'decisions':
      return (
        `The approval decisions cannot be applied: ${reason}. ` +
        'Give `decisions` as { "<callId>": { approve: true } | { reject: "reason" } | { edit: params } } for Calls the run awaits (result.interruptions, `ideact runs show`).'
      );
    case 'plan':
      return (
        `The plan's decisions are invalid (${where}): ${reason}. ` +
        'Pass executePlan(result, { decisions }) one of { approve: true } | { edit: Call } | { reject: string } per entry of result.plan, in its order.'
      );
    default:
      return (
        `The confirm hook returned an invalid decision (${where}): ${reason}. ` +
        'Return an array with exactly one of { approve: true } | { edit: Call } | { reject: string } per call, in the order of the calls.'
      );
  }
}
