import { ExecutionError } from './execution.error';

/**
 * A reference or output path uses a segment that could reach an object's prototype
 * (`__proto__`, `prototype`, `constructor`; R-OUT-2). Rejected so model output cannot pollute objects.
 */
export class UnsafePathError extends ExecutionError {
  static override readonly code = 'UNSAFE_PATH';

  /** The path or reference as written, e.g. `state.__proto__.admin`. */
  readonly path: string;
  /** The rejected segment, e.g. `__proto__`. */
  readonly segment: string;

  constructor(options: { path: string; segment: string; cause?: unknown }) {
    super({
      message:
        `Unsafe path "${options.path}": the segment "${options.segment}" is not allowed ` +
        '(__proto__, prototype and constructor are rejected). Rename the key in the path.',
      cause: options.cause,
    });
    this.path = options.path;
    this.segment = options.segment;
  }
}
