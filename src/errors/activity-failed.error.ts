import { ExecutionError } from './execution.error';

/** An Activity threw (a non-ideact error); the original message is kept (R-CALL-5). */
export class ActivityFailedError extends ExecutionError {
  static override readonly code = 'ACTIVITY_FAILED';

  /** The Tool the Call used. */
  readonly toolName: string;
  /** The Activity that threw. */
  readonly activity: string;

  constructor(options: { toolName: string; activity: string; cause?: unknown }) {
    const original = options.cause instanceof Error ? options.cause.message : String(options.cause);
    super({
      message:
        `Activity "${options.activity}" of tool "${options.toolName}" failed: ${original}. ` +
        'Check the params of the Call; if they are right, the Activity itself needs fixing.',
      cause: options.cause,
    });
    this.toolName = options.toolName;
    this.activity = options.activity;
  }
}
