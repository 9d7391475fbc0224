import { InputError } from './input.error';

/**
 * `store.create()` got a run id the store already holds: run ids name one run forever, so a second
 * run must take a new id (or continue the stored one with `agent.resume(runId)`).
 */
export class RunExistsError extends InputError {
  static override readonly code = 'RUN_EXISTS';

  /** The id that is taken. */
  readonly runId: string;
  /** Where the store keeps the run: its folder, or the database schema and server. */
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
        `Run "${options.runId}" already exists (${location}). ` +
        'Start the new run with another id, resume the stored run instead, or delete it first (`store.delete(runId)`).',
      cause: options.cause,
    });
    this.runId = options.runId;
    this.location = location;
  }
}
