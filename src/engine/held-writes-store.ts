import type {
  JournalEntry,
  RunFilter,
  RunHeader,
  RunStore,
  RunSummary,
  StoredRun,
} from '../runs/run-store';
import type { AgentState } from '../runs/agent-state';

/**
 * A worker's run store that holds some of a step's writes back (to send them with others in one
 * append) in front of the real store: every read, create, delete or flush writes what is held
 * first, so no one reads a run without what was written to it. Subclasses say what they hold.
 * @internal
 */
export abstract class HeldWritesStore implements RunStore {
  constructor(protected readonly store: RunStore) {}

  /** Holds `entries` or writes them (after what is held), as the subclass decides. */
  abstract append(runId: string, entries: readonly JournalEntry[]): Promise<void>;

  /** Writes what is held, in order. */
  abstract writeHeld(): Promise<void>;

  /** Writes what is held, then flushes the store. */
  async flush(): Promise<void> {
    await this.writeHeld();
    await this.store.flush?.();
  }

  /** Creates a run (after writing what is held). */
  async create(header: RunHeader, state: AgentState): Promise<void> {
    await this.writeHeld();
    await this.store.create(header, state);
  }

  /** Loads a run (after writing what is held). */
  async load(runId: string): Promise<StoredRun | undefined> {
    await this.writeHeld();
    return this.store.load(runId);
  }

  /** Lists runs (after writing what is held). */
  async list(filter?: RunFilter): Promise<RunSummary[]> {
    await this.writeHeld();
    return this.store.list(filter);
  }

  /** Deletes a run (after writing what is held). */
  async delete(runId: string): Promise<void> {
    await this.writeHeld();
    await this.store.delete(runId);
  }
}
