import { InputError } from './input.error';

/** An Idea (a file or a value) does not have the Idea structure `{ context, schema, solution? }`. */
export class InvalidIdeaError extends InputError {
  static override readonly code = 'INVALID_IDEA';

  /** Where the Idea came from: a file path, a URL or a label such as `'inline'`. */
  readonly source: string;
  /** JSON Pointer of the offending value inside the Idea, `''` for the root. */
  readonly jsonPath: string;

  constructor(options: { source: string; jsonPath: string; reason: string; cause?: unknown }) {
    const where = options.jsonPath === '' ? '(root)' : options.jsonPath;
    super({
      message: `Invalid Idea in ${options.source} at ${where}: ${options.reason}.`,
      cause: options.cause,
    });
    this.source = options.source;
    this.jsonPath = options.jsonPath;
  }
}
