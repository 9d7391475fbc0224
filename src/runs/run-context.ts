import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { Usage } from '../llm/provider';
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

/** Receives the tokens of each model request under a context: the model used and the request's path. */
export type UsageListener = (usage: Usage, model: string, path: readonly string[]) => void;

/**
 * Where work happens inside a run, threaded from the run through every model request, Call, module
 * sub-request and nested agent: the run id, the path from the root run, the abort signal, the event
 * sink and the usage sink. Emitting stamps an event with `runId`, `path` and a monotonic `time`.
 * Events are built only for someone who reads them ({@link RunContext.listened}); usage is counted
 * whether or not anyone listens, without events (issue 28: nothing is allocated for nobody).
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
  private readonly sink: RunEventListener | undefined;
  private readonly usageSink: UsageListener | undefined;
  /** True when this context or one it derives from was given a listener of its own. */
  private readonly ownListener: boolean;
  /** Shared by a run's contexts, so observing the root turns on deltas everywhere below it. */
  private readonly flags: RunContextFlags;
  private requests = 0;
  /** The context whose request numbering this one shares (a tap of it: same place, same numbers). */
  private readonly numbering?: RunContext;

  constructor(options: {
    runId: string;
    path: readonly string[];
    /** Receives the events (absent: events go nowhere unless the run's subscribers count says so). */
    sink?: RunEventListener;
    /** Receives the tokens of every model request under this context. */
    usage?: UsageListener;
    signal?: AbortSignal;
    flags?: RunContextFlags;
    store?: RunStore;
    nestedRuns?: NestedRunGate;
    /** True when `sink` holds a listener of its own (not only the run's subscribers). @internal */
    listening?: boolean;
    /** The context this one taps: its requests are numbered there (same place, same numbers). @internal */
    numbering?: RunContext;
  }) {
    this.runId = options.runId;
    this.path = Object.freeze([...options.path]);
    this.sink = options.sink;
    this.usageSink = options.usage;
    this.ownListener = options.listening === true;
    this.signal = options.signal;
    this.flags = options.flags ?? { observed: false, subscribers: 0 };
    this.store = options.store;
    this.nestedRuns = options.nestedRuns;
    this.numbering = options.numbering;
  }

  /** True when someone reads `solution-delta` events, so requests stream and parse partial JSON. */
  get observed(): boolean {
    return this.flags.observed;
  }

  /** Turns on `solution-delta` events for this context and every context derived from it. */
  observe(): void {
    this.flags.observed = true;
  }

  /**
   * True when someone reads this context's events (a run's subscriber, an `onStep` hook, a listener
   * given to this context or one above it): build and emit an event only then. @internal
   */
  get listened(): boolean {
    return this.ownListener || this.flags.subscribers > 0;
  }

  /** Counts a reader of the run's events (`run.subscribe`); returns what uncounts it. @internal */
  addSubscriber(): () => void {
    this.flags.subscribers += 1;
    let counted = true;
    return () => {
      if (!counted) return;
      counted = false;
      this.flags.subscribers -= 1;
    };
  }

  /**
   * False once the run found that nothing records its spans (no OpenTelemetry SDK, no tracer given,
   * no trace to continue): its model requests and Calls then open no span at all. @internal
   */
  get traced(): boolean {
    return this.flags.traced !== false;
  }

  /** Marks the run (and every context derived from it) as one whose spans nobody records. @internal */
  untraced(): void {
    this.flags.traced = false;
  }

  /** True when `request-start` events carry the rendered messages (opt-in: they can be large). */
  get recordsMessages(): boolean {
    return this.flags.messages === true;
  }

  /** Makes `request-start` events carry their rendered messages, here and in every derived context. */
  recordMessages(): void {
    this.flags.messages = true;
  }

  /**
   * A context that only counts what happens: for Calls run outside an agent. `listener` reads its
   * events, `usage` the tokens of its model requests.
   */
  static detached(
    options: { signal?: AbortSignal; listener?: RunEventListener; usage?: UsageListener } = {},
  ): RunContext {
    const runId = newRunId();
    return new RunContext({
      runId,
      path: [runId],
      ...(options.listener === undefined ? {} : { sink: options.listener, listening: true }),
      ...(options.usage === undefined ? {} : { usage: options.usage }),
      signal: options.signal,
    });
  }

  /** Stamps and sends one event (callers check {@link RunContext.listened} before building it). */
  emit(payload: RunEventPayload): void {
    const sink = this.sink;
    if (sink === undefined) return;
    const event = { ...payload, runId: this.runId, path: this.path, time: monotonicTime() };
    sink(event as RunEvent);
  }

  /** Counts one model request's tokens for every run and Call above this context. */
  recordUsage(usage: Usage, model: string): void {
    this.usageSink?.(usage, model, this.path);
  }

  /** A new request id, unique within the run: `<last path id>#<n>`. */
  nextRequestId(): string {
    if (this.numbering !== undefined) return this.numbering.nextRequestId();
    this.requests += 1;
    return `${this.path[this.path.length - 1]}#${this.requests}`;
  }

  /**
   * The context of one Call's sub-requests and nested runs: the path gains `callId`; `listener`
   * sees their events first, `usage` their tokens (the Actor sums a Call's usage this way);
   * `signal` replaces the run's.
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
    return this.derive(this.runId, this.path, { listener }, this.numbering ?? this);
  }

  /**
   * The same place in the run, with `listener` seeing its events after the run does (so events it
   * emits in turn come after the one that caused them, in order and time).
   */
  follow(listener: RunEventListener): RunContext {
    return this.derive(this.runId, this.path, { listener, last: true }, this.numbering ?? this);
  }

  private derive(
    runId: string,
    path: readonly string[],
    options: DeriveOptions,
    numbering?: RunContext,
  ): RunContext {
    const { listener, usage, last } = options;
    const sink = this.sink;
    const usageSink = this.usageSink;
    return new RunContext({
      runId,
      path,
      sink:
        listener === undefined || sink === undefined
          ? (sink ?? listener)
          : last === true
            ? (event) => {
                sink(event);
                listener(event);
              }
            : (event) => {
                listener(event);
                sink(event);
              },
      usage:
        usage === undefined || usageSink === undefined
          ? (usageSink ?? usage)
          : (tokens, model, requestPath) => {
              usage(tokens, model, requestPath);
              usageSink(tokens, model, requestPath);
            },
      listening: this.ownListener || listener !== undefined,
      signal: options.signal ?? this.signal,
      flags: this.flags,
      store: this.store,
      nestedRuns: this.nestedRuns,
      ...(numbering === undefined ? {} : { numbering }),
    });
  }
}

/** Switches shared by a run's contexts (the root's and every derived one). */
export interface RunContextFlags {
  /** Someone reads `solution-delta` events. */
  observed: boolean;
  /** `request-start` events carry the request's rendered messages. */
  messages?: boolean;
  /** How many readers the run's events have (its subscribers and `onStep`). */
  subscribers: number;
  /** False once the run found that nothing records its spans. */
  traced?: boolean;
}

/**
 * Options of the contexts derived from a run's: a listener that sees their events first, a usage
 * listener that sees their tokens first, a signal.
 */
export interface DeriveOptions {
  listener?: RunEventListener;
  /** `listener` sees each event after the run's sink (else before it). */
  last?: boolean;
  usage?: UsageListener;
  signal?: AbortSignal;
}
