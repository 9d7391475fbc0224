import { ExecutionError } from './execution.error';

/**
 * A Call waited for the output of another Call of the same solution (R-FLOW-4), which failed, and no
 * alternative (`||`) of its reference was present; it fails naming the failed Call.
 */
export class DependencyFailedError extends ExecutionError {
  static override readonly code = 'DEPENDENCY_FAILED';

  /** The Call this result belongs to (`_tool`). */
  readonly toolName: string;
  /** The reference expression that could not be resolved. */
  readonly reference: string;
  /** The id of the failed Call it depended on (`<vessel node id>:<index>`). */
  readonly failedCallId: string;
  /** The failed Call's tool. */
  readonly failedTool: string;

  constructor(options: {
    toolName: string;
    reference: string;
    failedCallId: string;
    failedTool: string;
    cause?: unknown;
  }) {
    super({
      message:
        `Call "${options.toolName}" was not run: it reads "${options.reference}", which Call ` +
        `${options.failedCallId} ("${options.failedTool}") was to write, but that Call failed. ` +
        'Fix the failed Call (its own result says why), then call this one again.',
      cause: options.cause,
    });
    this.toolName = options.toolName;
    this.reference = options.reference;
    this.failedCallId = options.failedCallId;
    this.failedTool = options.failedTool;
  }
}
