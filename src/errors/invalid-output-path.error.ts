import { ExecutionError } from './execution.error';

/** An `_outputPath` is not a valid path expression (R-OUT-1), e.g. empty, `a..b` or `a[0]`. */
export class InvalidOutputPathError extends ExecutionError {
  static override readonly code = 'INVALID_OUTPUT_PATH';

  /** The output path as written. */
  readonly path: string;

  constructor(options: { path: string; reason: string; cause?: unknown }) {
    super({
      message:
        `Invalid output path "${options.path}": ${options.reason}. ` +
        'Write dot-separated keys such as "weather.today", "†state.weather" or "a || b".',
      cause: options.cause,
    });
    this.path = options.path;
  }
}
