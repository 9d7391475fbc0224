import type { JournalEntry, RunStore, StoredRun } from '../runs/run-store';

/**
 * What a worker holds of one run between the DBOS steps of one workflow execution in its process
 * (issue 31): the run as the last step left it in the store, so the next step does not read it
 * again. A step takes it (or loads the run when nothing is held: the first step, a replay, a retry
 * after a failure); only a step that committed everything it changed hands the run on with `keep`.
 * Nothing else writes a run while its workflow runs: a cancel cancels the workflow (its next step
 * never starts) and a resume is a new execution, with a session of its own.
 * @internal
 */
export class RunSession {
  private held?: StoredRun;
  /** Entries of the held run not written yet (the Actor's hand-over commit): the next step writes them. */
  private unwritten: JournalEntry[] = [];

  constructor(
    private readonly store: RunStore,
    readonly runId: string,
  ) {}

  /**
   * The run as the previous step left it (given up by the session), else loaded from the store. A
   * taker that does not write {@link takeUnwritten}'s entries with its own must write them first.
   */
  async take(): Promise<StoredRun | undefined> {
    const held = this.held;
    this.held = undefined;
    if (held !== undefined) return held;
    // Nothing held, nothing unwritten: what the store has is the run.
    this.unwritten = [];
    return this.store.load(this.runId);
  }

  /** The held run's entries not written yet, given up: the taker writes them before its own. */
  takeUnwritten(): JournalEntry[] {
    const unwritten = this.unwritten;
    this.unwritten = [];
    return unwritten;
  }

  /**
   * Hands `stored` to the next step: committed in the store as it is, but for `unwritten` (entries
   * that bring the store to it, written by the next step with its own; lost with the process, they
   * leave the run where a replay brings it to the same state).
   */
  keep(stored: StoredRun, unwritten: readonly JournalEntry[] = []): void {
    this.held = stored;
    this.unwritten = [...unwritten];
  }
}
