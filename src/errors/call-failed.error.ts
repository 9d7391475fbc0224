import { ExecutionError } from './execution.error';

/**
 * A Call failed for a reason that is not an ideact error and not an Activity's own failure (e.g. an
 * I/O error while loading a module, a custom ModuleRunner that threw); the original message is kept.
 */
export class CallFailedError extends ExecutionError {
  static override readonly code = 'CALL_FAILED';

  /** The Tool the Call used. */
  readonly toolName: string;

  constructor(options: { toolName: string; cause?: unknown }) {
    const original = options.cause instanceof Error ? options.cause.message : String(options.cause);
    super({
      message: `Call of tool "${options.toolName}" failed: ${original}. Check the tool's configuration (module file, runner) and try again.`,
      cause: options.cause,
    });
    this.toolName = options.toolName;
  }
}
