import { ExecutionError } from './execution.error';

/** A Call was not started or was aborted: its batch failed or was decided, or the caller aborted (R-CALL-4). */
export class CallCancelledError extends ExecutionError {
  static override readonly code = 'CALL_CANCELLED';

  /** The Tool the cancelled Call used. */
  readonly toolName: string;

  constructor(options: { toolName: string; reason: string; cause?: unknown }) {
    super({
      message: `Call of tool "${options.toolName}" was cancelled: ${options.reason}. Call it again if its result is still needed.`,
      cause: options.cause,
    });
    this.toolName = options.toolName;
  }
}
