import type { JournalEntry, RunStore } from './run-store';

/**
 * One run's writes to its store, in order (issue 31): an entry written while an append is in flight
 * waits with the others written meanwhile and goes out with them in ONE append when that one ends,
 * so a run that does not wait for each commit makes one round trip per batch, not per step. Each
 * `write` settles once its entry is appended; after a failed append every later write fails with
 * that error (nothing is appended past a hole in the journal).
 */
export class JournalQueue {
  private inFlight?: Promise<void>;
  private waiting?: { entries: JournalEntry[]; written: Promise<void> };
  private failure?: { error: unknown };

  constructor(
    private readonly store: RunStore,
    private readonly runId: string,
  ) {}

  /** Appends the entry after everything written before it; settles once it is appended. */
  write(entry: JournalEntry): Promise<void> {
    if (this.failure !== undefined) return failed(this.failure.error);
    const waiting = this.waiting;
    if (waiting !== undefined) {
      waiting.entries.push(entry);
      return waiting.written;
    }
    const inFlight = this.inFlight;
    if (inFlight === undefined) return this.send([entry]);
    const entries = [entry];
    const written = inFlight.then(
      () => {
        this.waiting = undefined;
        return this.send(entries);
      },
      (error: unknown) => {
        this.waiting = undefined;
        throw error;
      },
    );
    this.waiting = { entries, written };
    // Its writer may not await it (a step that does not wait for its commit): never unhandled.
    written.catch(() => undefined);
    return written;
  }

  /** Settles once everything written so far is appended; rejects if an append failed. */
  settled(): Promise<void> {
    if (this.failure !== undefined) return failed(this.failure.error);
    return this.waiting?.written ?? this.inFlight ?? RESOLVED;
  }

  /** Throws the error of a failed append, if one failed. */
  throwIfFailed(): void {
    if (this.failure !== undefined) throw this.failure.error;
  }

  private send(entries: JournalEntry[]): Promise<void> {
    const sent = this.store.append(this.runId, entries).then(
      () => {
        if (this.inFlight === sent) this.inFlight = undefined;
      },
      (error: unknown) => {
        this.failure ??= { error };
        if (this.inFlight === sent) this.inFlight = undefined;
        throw error;
      },
    );
    this.inFlight = sent;
    sent.catch(() => undefined);
    return sent;
  }
}

const RESOLVED: Promise<void> = Promise.resolve();

/** A rejected promise that is never reported as unhandled (its writer may not await it). */
function failed(error: unknown): Promise<void> {
  const rejected = Promise.reject(error);
  rejected.catch(() => undefined);
  return rejected;
}
