import type { RunStore, StoredRun } from '../runs/run-store';

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

  constructor(
    private readonly store: RunStore,
    readonly runId: string,
  ) {}

  /** The run as the previous step left it (given up by the session), else loaded from the store. */
  async take(): Promise<StoredRun | undefined> {
    const held = this.held;
    this.held = undefined;
    return held ?? this.store.load(this.runId);
  }

  /** Hands `stored` (committed in the store as it is) to the next step. */
  keep(stored: StoredRun): void {
    this.held = stored;
  }
}
