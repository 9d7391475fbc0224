import { InputError } from './input.error';

/**
 * An eval (`ideact eval FILE`, `runEval(spec)`) cannot run as written: its file does not load, or a
 * field of its spec (the target, a case, a scorer, a threshold) has the wrong shape. Names the file
 * and the JSON path at fault.
 */
export class InvalidEvalError extends InputError {
  static override readonly code = 'INVALID_EVAL';

  /** The eval file, or `runEval(spec)` for a spec given in code. */
  readonly source: string;
  /** JSON Pointer of the offending value inside the spec (`/cases/2/scorers/0`), `''` for the root. */
  readonly jsonPath: string;
  /** What is wrong. */
  readonly reason: string;

  constructor(options: {
    source: string;
    jsonPath: string;
    reason: string;
    fix?: string;
    cause?: unknown;
  }) {
    const where = options.jsonPath === '' ? '(root)' : options.jsonPath;
    super({
      message:
        `The eval ${options.source} is not valid at ${where}: ${options.reason}. ` +
        (options.fix ?? 'Fix it as docs/evals.md describes (the spec, cases and scorers).'),
      cause: options.cause,
    });
    this.source = options.source;
    this.jsonPath = options.jsonPath;
    this.reason = options.reason;
  }
}
