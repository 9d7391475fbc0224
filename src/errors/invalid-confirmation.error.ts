import { ConfigurationError } from './configuration.error';

/**
 * The `confirm` hook (R-LOOP-4) returned something other than one decision per Call
 * (`{ approve: true }`, `{ edit: Call }` or `{ reject: reason }`).
 */
export class InvalidConfirmationError extends ConfigurationError {
  static override readonly code = 'INVALID_CONFIRMATION';

  /** Index of the offending decision, or -1 when the array itself is wrong. */
  readonly index: number;

  constructor(options: { index: number; reason: string; cause?: unknown }) {
    const where = options.index < 0 ? 'the returned value' : `decision ${options.index}`;
    super({
      message:
        `The confirm hook returned an invalid decision (${where}): ${options.reason}. ` +
        'Return an array with exactly one of { approve: true } | { edit: Call } | { reject: string } per call, in the order of the calls.',
      cause: options.cause,
    });
    this.index = options.index;
  }
}
