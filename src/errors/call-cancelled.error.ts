import { IdeactError } from './ideact-error';

/** A Call was not started or was aborted: its batch failed or was decided, or the caller aborted (R-CALL-4). */
export class CallCancelledError extends IdeactError {
  static override readonly code = 'CALL_CANCELLED';
  static override readonly fault = 'runtime' as const;

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
