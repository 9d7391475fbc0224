import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { RunEvent, RunEventListener, RunEventPayload } from './run-event';
import type { NestedRunGate } from './nested-run-gate';
import type { RunStore } from './run-store';

/** Milliseconds since the epoch from the monotonic clock, so event times never go backwards. */
export function monotonicTime(): number {
  return performance.timeOrigin + performance.now();
}

/** A new run id: `run_` and 12 random hex digits (unique enough to key a run store). */
export function newRunId(): string {
  return `run_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
}

/**
 * Where work happens inside a run, threaded from the run through every model request, Call, module
 * sub-request and nested agent: the run id, the path from the root run, the abort signal and the
 * event sink. Emitting stamps an event with `runId`, `path` and a monotonic `time`.
 */
export class RunContext {
  /** The run the work belongs to. */
  readonly runId: string;
  /** Ids from the root run down to here (see `RunEventBase.path`). */
  readonly path: readonly string[];
  /** Aborted when the run (or the Call the work belongs to) is cancelled. */
  readonly signal?: AbortSignal;
  /** Where the run is stored, so nested runs are stored beside it (linked by parent id). */
  readonly store?: RunStore;
  /** Where nested agents' runs go instead of in-process (a worker's child workflows). @internal */
  readonly nestedRuns?: NestedRunGate;
  private readonly sink: RunEventListener;
  /** Shared by a run's contexts, so observing the root turns on deltas everywhere below it. */
  private readonly flags: RunContextFlags;
  private requests = 0;

  constructor(options: {
    runId: string;
    path: readonly string[];
    sink: RunEventListener;
    signal?: AbortSignal;
    flags?: RunContextFlags;
    store?: RunStore;
    nestedRuns?: NestedRunGate;
  }) {
    this.runId = options.runId;
    this.path = Object.freeze([...options.path]);
    this.sink = options.sink;
    this.signal = options.signal;
    this.flags = options.flags ?? { observed: false };
    this.store = options.store;
    this.nestedRuns = options.nestedRuns;
  }

  /** True when someone reads `solution-delta` events, so requests stream and parse partial JSON. */
  get observed(): boolean {
    return this.flags.observed;
  }

  /** Turns on `solution-delta` events for this context and every context derived from it. */
  observe(): void {
    this.flags.observed = true;
  }

  /** True when `request-start` events carry the rendered messages (opt-in: they can be large). */
  get recordsMessages(): boolean {
    return this.flags.messages === true;
  }

  /** Makes `request-start` events carry their rendered messages, here and in every derived context. */
  recordMessages(): void {
    this.flags.messages = true;
  }

  /** A context that only counts what happens (no listener): for Calls run outside an agent. */
  static detached(options: { signal?: AbortSignal; listener?: RunEventListener } = {}): RunContext {
    const runId = newRunId();
    return new RunContext({
      runId,
      path: [runId],
      sink: options.listener ?? (() => undefined),
      signal: options.signal,
    });
  }

  /** Stamps and sends one event. */
  emit(payload: RunEventPayload): void {
    const event = { ...payload, runId: this.runId, path: this.path, time: monotonicTime() };
    this.sink(event as RunEvent);
  }

  /** A new request id, unique within the run: `<last path id>#<n>`. */
  nextRequestId(): string {
    this.requests += 1;
    return `${this.path[this.path.length - 1]}#${this.requests}`;
  }

  /**
   * The context of one Call's sub-requests and nested runs: the path gains `callId`; `listener`
   * sees their events first (the Actor sums a Call's usage this way); `signal` replaces the run's.
   */
  forCall(callId: string, options: DeriveOptions = {}): RunContext {
    return this.derive(this.runId, [...this.path, callId], options);
  }

  /** The context of a nested run started here: its own run id, appended to the path. */
  forNestedRun(runId: string, options: DeriveOptions = {}): RunContext {
    return this.derive(runId, [...this.path, runId], options);
  }

  /** The same place in the run, with `listener` seeing its events before the run does. */
  tap(listener: RunEventListener): RunContext {
    return this.derive(this.runId, this.path, { listener });
  }

  private derive(runId: string, path: readonly string[], options: DeriveOptions): RunContext {
    const listener = options.listener;
    const sink = this.sink;
    return new RunContext({
      runId,
      path,
      sink:
        listener === undefined
          ? sink
          : (event) => {
              listener(event);
              sink(event);
            },
      signal: options.signal ?? this.signal,
      flags: this.flags,
      store: this.store,
      nestedRuns: this.nestedRuns,
    });
  }
}

/** Switches shared by a run's contexts (the root's and every derived one). */
export interface RunContextFlags {
  /** Someone reads `solution-delta` events. */
  observed: boolean;
  /** `request-start` events carry the request's rendered messages. */
  messages?: boolean;
}

/** Options of the contexts derived from a run's: a listener that sees their events first, a signal. */
export interface DeriveOptions {
  listener?: RunEventListener;
  signal?: AbortSignal;
}
