import { ExecutionError } from './execution.error';

/**
 * A human (the `confirm` hook, R-LOOP-4) rejected a Call before it ran. Never thrown out of a run: it
 * becomes the Call's `result` error, so the LLM sees the reason on the next turn.
 */
export class CallRejectedError extends ExecutionError {
  static override readonly code = 'CALL_REJECTED';

  /** The tool of the rejected Call. */
  readonly toolName: string;
  /** The reason the human gave. */
  readonly reason: string;

  constructor(options: { toolName: string; reason: string; cause?: unknown }) {
    super({
      message:
        `The call to "${options.toolName}" was rejected by the user: ${options.reason}. ` +
        'Do not repeat it unchanged; take the reason into account and choose a different call or finish.',
      cause: options.cause,
    });
    this.toolName = options.toolName;
    this.reason = options.reason;
  }
}
