import { ExecutionError } from './execution.error';

/** The request was cancelled through its `AbortSignal` before the provider answered. */
export class RequestAbortedError extends ExecutionError {
  static override readonly code = 'REQUEST_ABORTED';

  constructor(options: { url?: string; cause?: unknown } = {}) {
    super({
      message:
        `The request${options.url ? ` to ${options.url}` : ''} was aborted by its AbortSignal. ` +
        'This is expected when the caller cancels; otherwise check who aborts the signal.',
      cause: options.cause,
    });
  }
}
