import type { RunStore, StoredRun } from './run-store';

/**
 * How an Agent keeps the runs that a `stateFile` names (issue 18): each state file is a shorthand for
 * a run store of exactly one run, so a step appends to a journal instead of rewriting the whole state.
 * `createAgent` supplies the FileRunStore-based `StateFileStores` (src/store); the runtime only knows this.
 */
export interface StateFiles {
  /** The store a new run saved under `file` is created in (the run replaces the one `file` named). */
  storeFor(file: string): RunStore;
  /**
   * The run `file` names, loaded from its store. A state file of the older format (the whole state
   * as JSON) is imported into a store run once, with a notice; the file itself is left as it was.
   */
  open(file: string): Promise<OpenedStateFile>;
}

/** What {@link StateFiles.open} returns: the store holding the run, and the run as loaded. */
export interface OpenedStateFile {
  store: RunStore;
  run: StoredRun;
}
