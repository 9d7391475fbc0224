import { InputError } from './input.error';

/**
 * A run id that a run store cannot use: a FileRunStore names a folder after it, so only letters,
 * digits, `_` and `-` are allowed (no `/`, `..` or empty id that could reach outside the store).
 */
export class InvalidRunIdError extends InputError {
  static override readonly code = 'INVALID_RUN_ID';

  /** The run id as given. */
  readonly runId: string;

  constructor(options: { runId: string; cause?: unknown }) {
    super({
      message:
        `Invalid run id ${JSON.stringify(options.runId)}: a run id is 1 to 200 letters, digits, "_" ` +
        'and "-" (it names a folder). Use the id a run reported (e.g. "run_1a2b3c4d5e6f").',
      cause: options.cause,
    });
    this.runId = options.runId;
  }
}
