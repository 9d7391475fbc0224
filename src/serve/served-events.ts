import type { Run } from '../agent/run';
import type { RunEvent } from '../runs/run-event';
import type { RunStore, StoredRunEvent } from '../runs/run-store';

/**
 * The events of served runs with stable ids (issue 32 item 1). Each event of a run this process
 * drives is numbered (1, 2, … over the run's whole life, across resumes and restarts), journaled in
 * the run store (`appendEvents`: events.jsonl beside the run's journal, or a PostgreSQL table) and
 * only then delivered to live readers — so an id a client saw is always stored, and a reader that
 * resumes after it (`Last-Event-ID`) reads the rest from the store, here or on any server sharing
 * it, then follows live events without a gap or a duplicate. A store without `appendEvents` keeps
 * the events in memory (ids then hold for this process only).
 */

/** What a reader of one run's events receives. */
export interface EventReader {
  /** One journaled event, in order. */
  event(stored: StoredRunEvent): void;
  /** The segment being driven here ended (the run stopped: completed, awaiting approval…). */
  end(): void;
}

/** How often a reader of a run driven elsewhere looks for new events in the store. */
const POLL_MS = 250;

/** One run driven here: its numbering, pending writes and live readers. */
interface LiveRun {
  next: number;
  pending: StoredRunEvent[];
  scheduled: boolean;
  writing: Promise<void>;
  readers: Set<EventReader>;
  ended: boolean;
}

/** Numbers, journals and delivers served runs' events (see the module comment). */
export class ServedEvents {
  private readonly live = new Map<string, LiveRun>();
  private readonly memory = new Map<string, StoredRunEvent[]>();

  constructor(
    private readonly store: RunStore,
    private readonly report: (error: unknown) => void,
  ) {}

  /** True when this process drives the run now. */
  isLive(runId: string): boolean {
    const live = this.live.get(runId);
    return live !== undefined && !live.ended;
  }

  /**
   * Journals the events of `run` (driven here) from now until `settled` resolves; numbering goes on
   * after the events the store holds for it.
   */
  async attach(run: Run, settled: Promise<unknown>): Promise<void> {
    const stored = await this.read(run.id, 0);
    const last = stored[stored.length - 1]?.seq ?? 0;
    const previous = this.live.get(run.id);
    const live: LiveRun = {
      next: last + 1,
      pending: [],
      scheduled: false,
      writing: Promise.resolve(),
      // Readers of a previous segment that are still open follow this one too.
      readers: previous?.readers ?? new Set(),
      ended: false,
    };
    this.live.set(run.id, live);
    const unsubscribe = run.subscribe((event) => this.record(run.id, live, event));
    void settled
      .catch(() => undefined)
      .then(async () => {
        unsubscribe();
        await this.drain(run.id, live);
        live.ended = true;
        for (const reader of [...live.readers]) reader.end();
        live.readers.clear();
      });
  }

  /** The run's journaled events after `after`. */
  async read(runId: string, after: number): Promise<StoredRunEvent[]> {
    if (this.store.readEvents === undefined) {
      return (this.memory.get(runId) ?? []).filter((stored) => stored.seq > after);
    }
    return this.store.readEvents(runId, after);
  }

  /**
   * Sends `reader` the run's events after `after`, then the live ones; ends it when the run's
   * segment driven here ends, or (run driven elsewhere) when the root `run-end` arrives or
   * `stillRunning()` says the run stopped. Returns the function that stops reading (a disconnect:
   * it never touches the run).
   */
  async follow(
    runId: string,
    after: number,
    reader: EventReader,
    stillRunning: () => Promise<boolean>,
  ): Promise<() => void> {
    let last = after;
    /** The client went away, or the stream ended. */
    let stopped = false;
    /** While the store is read, live events wait here (and the segment's end, if it comes). */
    let buffered: StoredRunEvent[] | undefined;
    let endPending = false;
    let following: LiveRun | undefined;
    const deliver = (stored: StoredRunEvent): void => {
      if (stopped || stored.seq <= last) return;
      last = stored.seq;
      reader.event(stored);
    };
    const finish = (): void => {
      if (stopped) return;
      stopped = true;
      following?.readers.delete(listener);
      reader.end();
    };
    const listener: EventReader = {
      event: (stored) => (buffered !== undefined ? buffered.push(stored) : deliver(stored)),
      end: () => {
        if (buffered !== undefined) endPending = true;
        else finish();
      },
    };
    /** Follows the live run (when it is driven here): store first, then what arrived meanwhile. */
    const followLive = async (live: LiveRun): Promise<void> => {
      buffered = [];
      following = live;
      live.readers.add(listener);
      for (const stored of await this.read(runId, last)) deliver(stored);
      for (const stored of buffered) deliver(stored);
      buffered = undefined;
      if (endPending) finish();
    };
    const stop = (): void => {
      stopped = true;
      following?.readers.delete(listener);
    };
    const live = this.live.get(runId);
    if (live !== undefined && !live.ended) {
      await followLive(live);
      return stop;
    }
    for (const stored of await this.read(runId, after)) deliver(stored);
    // Not driven here: read the store until the run's end shows (or it starts here).
    const poll = async (): Promise<void> => {
      while (!stopped) {
        const now = this.live.get(runId);
        if (now !== undefined && !now.ended) {
          await followLive(now);
          return;
        }
        const fresh = await this.read(runId, last);
        for (const stored of fresh) deliver(stored);
        const ended = fresh.some((stored) => isRootEnd(runId, stored.event));
        if (ended || (fresh.length === 0 && !(await stillRunning()))) {
          finish();
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      }
    };
    poll().catch((error: unknown) => {
      this.report(error);
      finish();
    });
    return stop;
  }

  /** Resolves once every event recorded so far is journaled and delivered. */
  async flush(): Promise<void> {
    await Promise.all([...this.live].map(([runId, live]) => this.drain(runId, live)));
  }

  private record(runId: string, live: LiveRun, event: RunEvent): void {
    live.pending.push({ seq: live.next, event: servedForm(event) });
    live.next += 1;
    if (live.scheduled) return;
    live.scheduled = true;
    // One write per turn of the event loop: the deltas of a streamed reply go out together.
    setImmediate(() => {
      live.scheduled = false;
      void this.write(runId, live);
    });
  }

  private write(runId: string, live: LiveRun): Promise<void> {
    const batch = live.pending;
    live.pending = [];
    live.writing = live.writing.then(async () => {
      if (batch.length === 0) return;
      try {
        await this.journal(runId, batch);
      } catch (error) {
        // Readers get no event the store lacks; the run goes on (its own journal is the record).
        this.report(error);
        return;
      }
      for (const reader of [...live.readers]) for (const stored of batch) reader.event(stored);
    });
    return live.writing;
  }

  private async drain(runId: string, live: LiveRun): Promise<void> {
    while (live.pending.length > 0 || live.scheduled) {
      live.scheduled = false;
      await this.write(runId, live);
    }
    await live.writing;
  }

  private async journal(runId: string, batch: StoredRunEvent[]): Promise<void> {
    if (this.store.appendEvents !== undefined) {
      await this.store.appendEvents(runId, batch);
      return;
    }
    const kept = this.memory.get(runId) ?? [];
    kept.push(...batch);
    this.memory.set(runId, kept);
  }
}

/**
 * An event as served: a `solution-delta` without `partial` (the whole option parsed so far, the same
 * for many deltas in a row: journaled and sent each time it would make a reply's events grow with the
 * square of its length); `output-delta` events carry the partial values instead.
 */
function servedForm(event: RunEvent): RunEvent {
  if (event.type !== 'solution-delta' || event.partial === undefined) return event;
  const { partial: _partial, ...rest } = event;
  return rest;
}

/** True for the `run-end` of the run itself (not of a nested run). */
export function isRootEnd(runId: string, event: RunEvent): boolean {
  return event.type === 'run-end' && event.runId === runId && event.path.length === 1;
}
