import type { JournalEntry, RunStore } from './run-store';

/** Entries waiting to go out together: behind the append in flight, or until the loop's next turn. */
interface Batch {
  entries: JournalEntry[];
  written: Promise<void>;
  /** Set while the batch waits for the event loop's next turn (nothing in flight): sends it now. */
  sendNow?: () => void;
}

/**
 * One run's writes to its store, in order (issue 31): an entry written while an append is in flight
 * waits with the others written meanwhile and goes out with them in ONE append when that one ends,
 * so a run that does not wait for each commit makes one round trip per batch, not per step. A write
 * that nobody awaits (`defer`) waits for the event loop's next turn, so the steps that follow at once
 * (a model turn after a Call's result) join its append; an awaited write or `settled()` sends it at
 * once. Each `write` settles once its entry is appended; after a failed append every later write
 * fails with that error (nothing is appended past a hole in the journal).
 */
export class JournalQueue {
  private inFlight?: Promise<void>;
  private waiting?: Batch;
  private failure?: { error: unknown };

  constructor(
    private readonly store: RunStore,
    private readonly runId: string,
  ) {}

  /**
   * Appends the entry after everything written before it; settles once it is appended. With
   * `defer`, an entry written while nothing is in flight goes out on the event loop's next turn
   * (with what is written until then) instead of at once.
   */
  write(entry: JournalEntry, options?: { defer?: boolean }): Promise<void> {
    if (this.failure !== undefined) return failed(this.failure.error);
    const waiting = this.waiting;
    if (waiting !== undefined) {
      waiting.entries.push(entry);
      if (options?.defer !== true) waiting.sendNow?.();
      return waiting.written;
    }
    const inFlight = this.inFlight;
    if (inFlight === undefined) {
      return options?.defer === true ? this.deferred([entry]) : this.send([entry]);
    }
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
    const waiting = this.waiting;
    if (waiting !== undefined) {
      waiting.sendNow?.();
      return waiting.written;
    }
    return this.inFlight ?? RESOLVED;
  }

  /** Settles once everything written so far is appended, without hurrying a deferred append. */
  written(): Promise<void> {
    if (this.failure !== undefined) return failed(this.failure.error);
    return this.waiting?.written ?? this.inFlight ?? RESOLVED;
  }

  /** Throws the error of a failed append, if one failed. */
  throwIfFailed(): void {
    if (this.failure !== undefined) throw this.failure.error;
  }

  /** A batch that goes out on the loop's next turn, or sooner when something waits for it. */
  private deferred(entries: JournalEntry[]): Promise<void> {
    let settle!: { resolve: () => void; reject: (error: unknown) => void };
    const written = new Promise<void>((resolve, reject) => (settle = { resolve, reject }));
    written.catch(() => undefined);
    const batch: Batch = { entries, written };
    const sendNow = () => {
      if (batch.sendNow === undefined) return;
      batch.sendNow = undefined;
      clearImmediate(timer);
      this.waiting = undefined;
      this.send(entries).then(settle.resolve, settle.reject);
    };
    batch.sendNow = sendNow;
    const timer = setImmediate(sendNow);
    this.waiting = batch;
    return written;
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
