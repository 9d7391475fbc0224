import { ExecutionError } from './execution.error';

/**
 * A Call's output cannot be written as its `_outputMethod` says (R-OUT-7): `push` / `concat` onto a
 * value that is not an array, `concat` of an output that is not an array; or a write message whose
 * metadata cannot be read (an unknown `_outputMethod`, no value at its `_outputPath`).
 */
export class InvalidOutputWriteError extends ExecutionError {
  static override readonly code = 'INVALID_OUTPUT_WRITE';

  /** The Call's id (`_call`), when known: `<vessel node id>:<index>` in the agent loop. */
  readonly callId: string | undefined;
  /** The Tool the Call used, when known. */
  readonly toolName: string | undefined;
  /** The path written, e.g. `†state.items`. */
  readonly path: string;
  /** The output method, as written. */
  readonly method: string;

  constructor(options: {
    path: string;
    method: string;
    reason: string;
    callId?: string;
    toolName?: string;
    cause?: unknown;
  }) {
    const who = [
      options.callId === undefined ? undefined : `Call ${options.callId}`,
      options.toolName === undefined ? undefined : `of tool "${options.toolName}"`,
    ]
      .filter((part) => part !== undefined)
      .join(' ');
    super({
      message:
        `${who === '' ? 'A write' : who} cannot ${options.method} to "${options.path}": ${options.reason}. ` +
        'push appends to an array (or starts one where nothing is), concat appends the items of an array ' +
        'output; use set to replace the value instead.',
      cause: options.cause,
    });
    this.callId = options.callId;
    this.toolName = options.toolName;
    this.path = options.path;
    this.method = options.method;
  }
}
