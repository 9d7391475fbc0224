import { setMaxListeners } from 'node:events';
import { IdeactError } from '../errors/ideact-error';
import { StepFailedError } from '../errors/step-failed.error';
import { InvalidAgentStateError } from '../errors/invalid-agent-state.error';
import type { RunStore } from '../runs/run-store';
import { commitEntry, commitKeyOf, statusOf } from '../runs/run-journal';
import { JournalQueue } from '../runs/journal-queue';
import { interruptionsOf } from './approvals';
import { createLimiter } from '../calls/concurrency';
import { RunContext, newRunId, type UsageListener } from '../runs/run-context';
import type { RunEvent, RunEventListener } from '../runs/run-event';
import { callErrorOf } from '../requests/send-request';
import { isSpanContextValid } from '@opentelemetry/api';
import {
  contentJson,
  providerName,
  recordSpanError,
  recordSpanUsage,
  recordsContent,
  withSpan,
} from '../runs/tracing';
import type {
  AgentConfig,
  AgentResult,
  PlannedCall,
  ResumeOptions,
  StepModules,
} from './agent-options';
import { DEFAULT_ACTOR_CONCURRENCY, DEFAULT_PROMPT_TOKEN_BUDGET } from './agent-options';
import type {
  AgentRuntime,
  AgentSettings,
  CallGate,
  CallRunner,
  ToolSource,
} from './agent-runtime';
import type { ActiveStep, AgentState, NextStep } from '../runs/agent-state';
import { EventChannel } from './event-channel';
import { StartedCalls } from './started-calls';
import { collectFailedCalls, isActivityBug } from './failed-calls';
import { markState, rollbackState, type StateMark } from '../runs/state-tree';
import { isAppendOnly, mayHaveEdited, whileEditing } from '../runs/state-edits';
import { limitConditions, stopWhen, type StopCondition } from './stop-conditions';
import { recordRequestUsage, runEventUsage } from './usage';
import type { Provider } from '../llm/provider';
import type { MessageHandler } from '../requests/message-handler';
import { copyLimits } from '../runs/copy-limits';

/** What every run of an Agent shares: the immutable definition (services, options, modules). @internal */
export interface RunDefinition {
  provider: Provider;
  toolkit: ToolSource;
  executor: CallRunner;
  handlers?: MessageHandler[];
  maxRepairs?: number;
  config: AgentConfig;
  modules: StepModules;
}

/** How a run is opened: its options, where it saves, and (nested agents) the parent's context. @internal */
export interface RunSetup {
  options: ResumeOptions;
  /** The context of the module Call a nested agent runs in: its events flow through the parent's. */
  parent?: RunContext;
  /** True when the state is continued (loaded, resumed) rather than new. */
  resumed: boolean;
  /** Where the run is stored (its journal); nested runs use their parent's. */
  store?: RunStore;
  /** True when the store already holds this run (resumed from it), so it is not created again. */
  stored?: boolean;
  /** How often each Call was started before (from the store's journal), for `attempt` numbers. */
  attempts?: Record<string, number>;
  /** The key of the commit the store holds (`storedCommitKey`), when `stored`: not written again. */
  lastCommit?: string;
  /** Told when the run ends: its state when it stopped unfinished (resumable), undefined when completed. */
  remember?: (runId: string, state: AgentState | undefined) => void;
}

/**
 * One run of an Agent: its own state, id, abort signal, usage and events (issue 16). `agent.start()`
 * returns it for step-by-step use; `agent.run()` and `agent.stream()` drive one to the end. Runs of
 * one Agent never share anything mutable.
 */
export class Run {
  /** The run's id (kept in `state.runId`, so a resumed run keeps it). */
  readonly id: string;
  private readonly current: AgentState;
  private readonly definition: RunDefinition;
  private readonly controller = new AbortController();
  private readonly settings: AgentSettings;
  private readonly runStops: StopCondition[];
  private readonly context: RunContext;
  private readonly listeners = new Set<RunEventListener>();
  private readonly started: StartedCalls;
  private readonly callGate?: CallGate;
  private readonly resumed: boolean;
  private lastGood: StateMark;
  /** The run's writes to its store, in order (none without a store). */
  private readonly journal?: JournalQueue;
  private readonly store?: RunStore;
  private readonly stored: boolean;
  /** Per callId, its attempts so far: a Map, as a run adds one key per Call (issue 28). */
  private readonly attempts: Map<string, number>;
  private readonly remember?: RunSetup['remember'];
  /** Nodes the store holds (the next commit sends the rest); a rollback lowers it. */
  private committed: number;
  /** The head, next step, limits and status of the last commit (to skip commits that change none). */
  private lastCommit?: string;
  private opened?: Promise<void>;
  private announced = false;
  private ended = false;
  private busy = false;
  /** This step's commits are written while the run goes on (see `runStep`). */
  private commitsInBackground = false;
  private outcome?: Promise<AgentResult>;
  private view?: AgentRuntime;

  /** @internal Runs are made by `agent.start()`, `agent.run()`, `agent.stream()` and `agent.resume()`. */
  constructor(definition: RunDefinition, state: AgentState, setup: RunSetup) {
    this.definition = definition;
    this.current = state;
    this.id = state.runId ?? newRunId();
    state.runId = this.id;
    this.resumed = setup.resumed;
    this.store = setup.store ?? setup.parent?.store;
    if (this.store !== undefined) this.journal = new JournalQueue(this.store, this.id);
    this.stored = setup.stored === true;
    this.attempts = new Map(Object.entries(setup.attempts ?? {}));
    this.remember = setup.remember;
    this.committed = this.stored ? state.nodes.length : 0;
    if (this.stored) this.lastCommit = setup.lastCommit;
    const options = setup.options;
    const signal =
      options.signal === undefined
        ? this.controller.signal
        : AbortSignal.any([options.signal, this.controller.signal]);
    // Every running Call listens to the run's signal: a Vessel of 100 Calls is not a listener leak.
    setMaxListeners(0, signal);
    const config = definition.config;
    this.settings = {
      n: options.n ?? config.n ?? 1,
      confirm: options.confirm ?? config.confirm,
      signal,
      handlers: definition.handlers,
      maxRepairs: definition.maxRepairs,
      model: config.model,
      temperature: config.temperature,
      promptTokenBudget: config.promptTokenBudget ?? DEFAULT_PROMPT_TOKEN_BUDGET,
      concurrency: config.actorConcurrency ?? DEFAULT_ACTOR_CONCURRENCY,
      activityErrors: config.activityErrors ?? 'feed',
      eagerCalls: options.eagerCalls ?? config.eagerCalls ?? true,
      planMode: options.planMode ?? config.planMode ?? 'eager',
      needsApproval: config.needsApproval,
    };
    this.callGate = options.callGate;
    this.started = new StartedCalls(createLimiter(this.settings.concurrency));
    this.runStops = [...(config.stopWhen ?? []), ...(options.stopWhen ?? [])];
    // Every model request under the run counts in its usage (also a nested run's, in its own and in
    // each run above it); events are built only for readers (subscribers), not for the run itself.
    const usage: UsageListener = (tokens, model, path) =>
      recordRequestUsage(this.current, tokens, model, path);
    this.context =
      setup.parent === undefined
        ? new RunContext({
            runId: this.id,
            path: [this.id],
            sink: (event) => this.dispatch(event),
            usage,
            signal,
            store: this.store,
            nestedRuns: options.nestedRuns,
          })
        : setup.parent.forNestedRun(this.id, { usage, signal });
    if (options.events?.messages === true) this.context.recordMessages();
    this.lastGood = markState(state);
  }

  /** The run's state (plain JSON; between steps you may edit it, e.g. a hand-set `nextStep`). */
  get state(): AgentState {
    return this.current;
  }

  /** The run's abort signal (aborted by `abort()` or by the `signal` the run was given). */
  get signal(): AbortSignal {
    return this.settings.signal as AbortSignal;
  }

  /**
   * Receives every event of this run and of its nested runs and module sub-requests, synchronously
   * and in order; returns the function that stops it. A listener that throws is reported as a warning.
   */
  subscribe(listener: RunEventListener, options: { deltas?: boolean } = {}): () => void {
    this.listeners.add(listener);
    const uncount = this.context.addSubscriber();
    if (options.deltas !== false) this.observe();
    return () => {
      this.listeners.delete(listener);
      uncount();
    };
  }

  /**
   * The events from now on as an async iterable that ends with this run's `run-end` event. It does
   * not drive the run: step it, or call `result()` (`agent.stream()` does both for you).
   */
  events(): AsyncIterable<RunEvent> {
    const channel = new EventChannel<RunEvent>();
    const unsubscribe = this.subscribe((event) => {
      channel.push(event);
      if (event.type === 'run-end' && event.runId === this.id) {
        unsubscribe();
        channel.end();
      }
    });
    return channel;
  }

  /** Stops the run at the next check (stop reason `aborted`, resumable); running Calls are cancelled. */
  abort(reason?: unknown): void {
    this.controller.abort(reason);
  }

  /**
   * Runs exactly one module (the one `state.nextStep` names) and saves the state; returns the new
   * `nextStep`. A failing module leaves the last good state (in memory and on disk), marked with the
   * stop reason `error` (or `aborted`) and the failed step as `pending`, then rethrows the error
   * (an error that is not an ideact error is wrapped in a `StepFailedError` whose `cause` it is).
   */
  async step(): Promise<NextStep> {
    if (this.busy) {
      throw new InvalidAgentStateError({
        jsonPath: '',
        reason:
          this.outcome === undefined
            ? 'a step of this run is already running; await it before the next one'
            : 'result() is driving this run to its end; await it instead of stepping',
      });
    }
    this.busy = true;
    try {
      await this.open();
      const next = await this.runStep();
      if (next.module === 'done') {
        // The run's end is on disk before anyone hears of it (a store's batched durability).
        await this.store?.flush?.();
        this.announceEnd(undefined);
      }
      return next;
    } finally {
      this.busy = false;
    }
  }

  /**
   * Runs until the run ends (R-LOOP-3) and resolves to its result; called again, returns the same
   * promise. Failed Calls are in `result.failedCalls`; with `activityErrors: 'throw'` an Activity's
   * bug resolves with stop reason `error` and `result.error` (other step errors reject).
   */
  result<TOutput = unknown>(): Promise<AgentResult<TOutput>> {
    if (this.outcome === undefined && this.busy) {
      return Promise.reject(
        new InvalidAgentStateError({
          jsonPath: '',
          reason: 'a step of this run is running; await it before result()',
        }),
      );
    }
    this.outcome ??= this.traced();
    return this.outcome as Promise<AgentResult<TOutput>>;
  }

  /**
   * Journals the state now when the run has a store (a `stateFile` is a store of one run); commits
   * are serialized, in order.
   */
  checkpoint(): Promise<void> {
    const state = this.current;
    this.lastGood = markState(state);
    const journal = this.journal;
    if (journal === undefined) return RESOLVED;
    // The commit is taken now (the state as it is), written after the writes before it.
    const entry = commitEntry(state, this.committed);
    this.committed = state.nodes.length;
    // A step that added no node and left the stored next step as it was (the Prompter's: its
    // prompt is not stored) changes only counters: not worth a journal line.
    const key = commitKeyOf(entry);
    if (entry.nodes.length === 0 && entry.from === state.nodes.length && key === this.lastCommit) {
      return this.commitsInBackground ? journal.written() : journal.settled();
    }
    this.lastCommit = key;
    // Nobody waits for it: the steps that follow at once (the next model turn) join its append.
    return journal.write(entry, this.commitsInBackground ? DEFERRED : undefined);
  }

  /**
   * Records that a Call starts (its attempt: 1, or one more than a journal of this run recorded) and,
   * with a store, journals it first (the promise settles once it is), so a crash before its end makes
   * a resume run it again with the same `callId` and the next attempt (at-least-once, idempotent by
   * `callId`).
   */
  callStarting(callId: string): number | Promise<number> {
    const attempt = (this.attempts.get(callId) ?? 0) + 1;
    this.attempts.set(callId, attempt);
    const journal = this.journal;
    if (journal !== undefined) {
      const entry = {
        type: 'call-start' as const,
        callId,
        attempt,
        time: new Date().toISOString(),
      };
      return journal.write(entry).then(() => attempt);
    }
    // Without a store there is nothing to wait for: no promise per Call (issue 28).
    return attempt;
  }

  /** Streams partial solutions from now on (someone reads `solution-delta` events). @internal */
  observe(): void {
    this.context.observe();
  }

  /**
   * The Calls' attempts this run recorded (those it was resumed with included), as a copy: what a
   * store's `load` would give as `attempts` once the run's writes are committed. @internal
   */
  recordedAttempts(): Record<string, number> {
    return Object.fromEntries(this.attempts);
  }

  /** The first save and the `run-start` event, once. */
  private open(): Promise<void> {
    this.opened ??= (async () => {
      if (this.store !== undefined && !this.stored) {
        const parent = this.parentPath();
        await this.store.create(
          {
            runId: this.id,
            ...(parent === undefined ? {} : parent),
            ...(this.current.task === undefined ? {} : { task: this.current.task }),
            createdAt: new Date().toISOString(),
          },
          this.current,
        );
        this.committed = this.current.nodes.length;
      }
      await this.checkpoint();
      if (this.context.listened) {
        this.context.emit({
          type: 'run-start',
          ...(this.current.task === undefined ? {} : { task: this.current.task }),
          chain: [...this.current.chain],
          resumed: this.resumed,
        });
      }
      this.announced = true;
    })();
    return this.opened;
  }

  /** For a nested run: the parent run's id and the module Call's id (from the context's path). */
  private parentPath(): { parentRunId: string; parentCallId: string } | undefined {
    const path = this.context.path;
    if (path.length < 3) return undefined;
    const parentCallId = path[path.length - 2] as string;
    // The parent run is the nearest run id above the Call (path: …, runId, callId, this id).
    const parentRunId = path[path.length - 3] as string;
    return { parentRunId, parentCallId };
  }

  /**
   * Runs the module `nextStep` names. `marked`: the last checkpoint's mark is this state's (the loop
   * checkpoints after every step), so it need not be taken again; `step()` takes it, since a person
   * may have edited the state since.
   */
  private async runStep(marked = false): Promise<NextStep> {
    const state = this.current;
    const step = state.nextStep;
    if (step.module === 'done') return step;
    const module = this.definition.modules[step.module];
    if (!marked) {
      this.lastGood = markState(state);
      // A person may have edited the state since the last step: per-state caches check it in full.
      mayHaveEdited(state);
    }
    const onStep = this.definition.config.onStep;
    // A run going to its end that nobody watches step by step goes on while its commits are written
    // (issue 31): a Call's start, an approval pause and the run's end wait for every commit before them.
    this.commitsInBackground = marked && onStep === undefined && !this.context.listened;
    const started = Date.now();
    try {
      if (isAppendOnly(module)) await module.run(this.runtime());
      else await whileEditing(state, () => module.run(this.runtime()));
    } catch (thrown) {
      return this.failStep(thrown, step, started);
    }
    state.usage.steps += 1;
    state.usage.elapsedMs += Date.now() - started;
    const saved = this.checkpoint();
    // Without a store the checkpoint is done already: no await, no extra turn of the event loop.
    if (saved !== RESOLVED && !this.commitsInBackground) await saved;
    if (onStep !== undefined) {
      guarded(() => onStep({ module: step.module, state, depth: state.chain.length }));
    }
    if (this.context.listened) {
      this.context.emit({
        type: 'step',
        module: step.module,
        next: state.nextStep.module,
        usage: runEventUsage(state.usage),
      });
    }
    // `onStep` and the step's readers may edit the state between steps (it is theirs to edit then).
    if (onStep !== undefined || this.context.listened) mayHaveEdited(state);
    return state.nextStep;
  }

  /**
   * A step that threw: the state rolls back to the last good one, stops with reason `error` (or
   * `aborted`, returned) and is saved; the error leaves as an ideact error. Apart from `runStep`, which
   * the optimizing compiler takes in a process's first runs, so that it need not compile this too (issue 28).
   */
  private async failStep(thrown: unknown, step: ActiveStep, started: number): Promise<NextStep> {
    const state = this.current;
    // Every error that leaves a run is an ideact error: a custom module's own bug is wrapped.
    const error = IdeactError.isInstance(thrown)
      ? thrown
      : new StepFailedError({ step: step.module, cause: thrown });
    rollbackState(state, this.lastGood);
    this.committed = Math.min(this.committed, state.nodes.length);
    state.usage.elapsedMs += Date.now() - started;
    const aborted = this.settings.signal?.aborted === true;
    const pending = state.nextStep.module === 'done' ? step : state.nextStep;
    state.nextStep = {
      module: 'done',
      args: aborted
        ? { reason: 'aborted', pending }
        : { reason: 'error', pending, error: error.toCallError() },
    };
    this.started.clear();
    await this.checkpoint();
    await this.store?.flush?.();
    if (aborted) return state.nextStep;
    // Without a store the failed run stays resumable in this process, like one that stopped.
    this.remember?.(this.id, state);
    this.announceEnd(error);
    throw error;
  }

  /**
   * The run as an `invoke_agent` span (GenAI conventions): a nested agent's span is the child of the
   * `execute_tool` span of its module Call, since the OpenTelemetry context carries the parent.
   */
  private traced(): Promise<AgentResult> {
    const chain = this.current.chain;
    const agentName = chain.length > 0 ? moduleName(chain[chain.length - 1]) : undefined;
    const attributes: Record<string, string> = {
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.provider.name': providerName(this.definition.provider.name),
      'gen_ai.conversation.id': this.id,
    };
    if (agentName !== undefined) attributes['gen_ai.agent.name'] = agentName;
    const model = this.definition.config.model;
    if (model !== undefined) attributes['gen_ai.request.model'] = model;
    return withSpan(
      agentName === undefined ? 'invoke_agent' : `invoke_agent ${agentName}`,
      attributes,
      async (span) => {
        // Nothing records this run's span and there is no trace to continue: its model requests
        // and Calls open no spans at all (issue 28), decided once per run.
        if (!span.isRecording() && !isSpanContextValid(span.spanContext())) {
          this.context.untraced();
        }
        const result = await this.loop();
        if (span.isRecording()) {
          recordSpanUsage(span, result.usage);
          span.setAttribute('ideact.stop_reason', result.stopReason);
          const done = result.state.nextStep;
          if (result.error !== undefined) recordSpanError(span, result.error);
          else if (done.module === 'done' && done.args.error !== undefined) {
            span.setAttribute('error.type', done.args.error.code);
          }
          if (recordsContent(span)) {
            span.setAttribute('ideact.output', contentJson(result.output));
          }
        }
        return result;
      },
      { trace: this.definition.config.trace },
    );
  }

  private async loop(): Promise<AgentResult> {
    this.busy = true;
    let activityBug: AgentResult['error'];
    try {
      await this.open();
      // The state may have been edited since a `step()`: the loop's steps start from this mark.
      this.lastGood = markState(this.current);
      mayHaveEdited(this.current);
      // Built once per run (issue 28), again only if a step changed the limits.
      const stopContext = { signal: this.settings.signal };
      let limits = copyLimits(this.current.limits);
      let shouldStop = stopWhen(...limitConditions(limits), ...this.runStops);
      for (;;) {
        const state = this.current;
        const step = state.nextStep;
        if (step.module === 'done') break;
        // A commit the loop did not wait for failed: the run stops with the store's error now.
        this.journal?.throwIfFailed();
        if (!sameLimits(state.limits, limits)) {
          limits = copyLimits(state.limits);
          shouldStop = stopWhen(...limitConditions(limits), ...this.runStops);
        }
        const reason = shouldStop(state, stopContext);
        // A `stopWhen` condition of the user's reads the state (and could edit it).
        if (this.runStops.length > 0) mayHaveEdited(state);
        if (reason !== undefined) {
          state.nextStep = { module: 'done', args: { reason, pending: step } };
          await this.checkpoint();
          break;
        }
        try {
          await this.runStep(true);
        } catch (error) {
          // runStep() already saved the state, stopped with reason `error`.
          if (this.settings.activityErrors !== 'throw' || !isActivityBug(error)) throw error;
          activityBug = error;
          break;
        }
      }
    } finally {
      this.busy = false;
    }
    await this.journal?.settled();
    await this.store?.flush?.();
    return this.finishedResult(activityBug);
  }

  /** The result of a run that reached `done` (the loop's end, apart from its hot part). */
  private finishedResult(activityBug: AgentResult['error']): AgentResult {
    const state = this.current;
    const done = state.nextStep as Extract<NextStep, { module: 'done' }>;
    const result: AgentResult = {
      runId: this.id,
      output: done.args.output ?? null,
      stopReason: done.args.reason,
      state,
      usage: state.usage,
      failedCalls: collectFailedCalls(state),
    };
    if (activityBug !== undefined) result.error = activityBug;
    if (done.args.reason === 'planned') result.plan = plannedCalls(state);
    if (done.args.reason === 'awaiting_approval') result.interruptions = interruptionsOf(state);
    this.remember?.(this.id, statusOf(state) === 'completed' ? undefined : state);
    this.announceEnd(activityBug);
    return result;
  }

  /** The `run-end` event, once, when the run reached `done` (or a step threw). */
  private announceEnd(error: unknown): void {
    if (this.ended || !this.announced) return;
    const done = this.current.nextStep;
    if (done.module !== 'done' && error === undefined) return;
    this.ended = true;
    if (!this.context.listened) return;
    const event = {
      type: 'run-end' as const,
      stopReason: done.module === 'done' ? done.args.reason : 'error',
      output: done.module === 'done' ? (done.args.output ?? null) : null,
      usage: runEventUsage(this.current.usage),
    };
    const failure =
      error !== undefined
        ? callErrorOf(error)
        : done.module === 'done'
          ? done.args.error
          : undefined;
    this.context.emit(failure === undefined ? event : { ...event, error: failure });
  }

  /** Hands an event to the root run's listeners. */
  private dispatch(event: RunEvent): void {
    for (const listener of this.listeners) guarded(() => listener(event));
  }

  /** What the step modules see: made once per run (its parts never change during the run). */
  private runtime(): AgentRuntime {
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- the view's getter reads the run
    const run = this;
    this.view ??= {
      state: this.current,
      provider: this.definition.provider,
      toolkit: this.definition.toolkit,
      executor: this.definition.executor,
      settings: this.settings,
      run: this.context,
      startedCalls: this.started,
      callStarting: (callId: string) => this.callStarting(callId),
      ...(this.callGate === undefined ? {} : { callGate: this.callGate }),
      checkpoint: () => this.checkpoint(),
      get commitsInBackground() {
        return run.commitsInBackground;
      },
    };
    return this.view;
  }
}

/** What a checkpoint without a store returns: nothing to wait for, one promise for every such step. */
const RESOLVED: Promise<void> = Promise.resolve();

/** A commit nobody waits for goes out on the event loop's next turn, with what follows it at once. */
const DEFERRED = { defer: true } as const;

/** True when two limit sets are the same (they rarely change during a run; when they do, stop anew). */
function sameLimits(left: AgentState['limits'], right: AgentState['limits']): boolean {
  return (
    left.maxTurns === right.maxTurns &&
    left.maxTokens === right.maxTokens &&
    left.maxTimeMs === right.maxTimeMs
  );
}

/** The pending Calls of the Vessel a lazily planned run stopped at (plan mode `lazy`). */
function plannedCalls(state: AgentState): PlannedCall[] {
  const done = state.nextStep;
  const pending = done.module === 'done' ? done.args.pending : undefined;
  if (pending?.module !== 'actor') return [];
  const node = state.nodes[pending.args.nodeId];
  if (node?.message.type !== 'vessel') return [];
  const recorded = new Set<number>();
  for (let id = node.id + 1; id < state.nodes.length; id++) {
    const source = state.nodes[id]?.metadata.source;
    if (source?.nodeId === node.id) recorded.add(source.callIndex);
  }
  return node.message.calls.flatMap((call, index) =>
    recorded.has(index) ? [] : [{ callId: `${node.id}:${index}`, call: structuredClone(call) }],
  );
}

/** Runs a listener; its error becomes a process warning instead of breaking the run. */
function guarded(listener: () => void): void {
  try {
    listener();
  } catch (error) {
    process.emitWarning(
      `ideact: a run event listener threw: ${error instanceof Error ? error.message : String(error)}`,
      { code: 'IDEACT_LISTENER_ERROR' },
    );
  }
}

/** A nested agent's name for traces: its module id's last segment without `.json` (`a.json` → `a`). */
function moduleName(moduleId: string): string {
  const segment = moduleId.slice(
    Math.max(moduleId.lastIndexOf('/'), moduleId.lastIndexOf('\\')) + 1,
  );
  return segment.replace(/(\.idea)?\.json$/, '') || moduleId;
}
