import { InputError } from './input.error';

/**
 * A run id names no run of the store (appending to it, or resuming it): a typo, another store or
 * schema, or a run that was deleted.
 */
export class RunNotFoundError extends InputError {
  static override readonly code = 'RUN_NOT_FOUND';

  /** The id that names no run. */
  readonly runId: string;
  /** Where the store looked: the run's folder, or the database schema and server. */
  readonly location: string;

  constructor(options: {
    runId: string;
    /** Where the store keeps its runs (a folder; a database schema and server). */
    location?: string;
    cause?: unknown;
  }) {
    const location = options.location ?? 'the run store';
    super({
      message:
        `Run "${options.runId}" is not in the store (${location}). ` +
        'Check the id (`store.list()` shows the stored runs) and that the store points at the folder, database or schema that ran it.',
      cause: options.cause,
    });
    this.runId = options.runId;
    this.location = location;
  }
}
