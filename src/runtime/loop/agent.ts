import { IdeactError } from '../../errors/ideact-error';
import { StepFailedError } from '../../errors/step-failed.error';
import { InvalidAgentStateError } from '../../errors/invalid-agent-state.error';
import type { Provider } from '../../llm/provider';
import type { Call } from '../../protocol/call';
import type { Message } from '../../protocol/message';
import type { TypedToolReference } from '../../protocol/typed-tool';
import { loadState, saveState } from '../state-store';
import {
  contentJson,
  providerName,
  recordSpanError,
  recordSpanUsage,
  recordsContent,
  withSpan,
} from '../tracing';
import {
  DEFAULT_ACTOR_CONCURRENCY,
  DEFAULT_PROMPT_TOKEN_BUDGET,
  type AgentConfig,
  type AgentResult,
  type ResumeOptions,
  type RunOptions,
  type StepModules,
} from './agent-options';
import type { AgentRuntime, AgentSettings, CallRunner, ToolSource } from './agent-runtime';
import type { AgentState, NextStep } from './agent-state';
import { BasicPrompter } from './basic-prompter';
import { CallActor } from './call-actor';
import { collectFailedCalls, isActivityBug } from './failed-calls';
import { FirstOptionDiscriminator } from './first-option-discriminator';
import {
  appendNode,
  assertValidState,
  contextMessages,
  createInitialState,
  markState,
  rollbackState,
  type StateMark,
} from './state-tree';
import { limitConditions, stopWhen, type StopCondition } from './stop-conditions';
import { VesselGenerator } from './vessel-generator';

/** An executor that can also run typed calls (the container's `Executor`). */
export interface TypedCallRunner extends CallRunner {
  call(
    call: Call,
    context: Message[],
    options?: { signal?: AbortSignal; instance?: string },
  ): Promise<Message[]>;
  call<TInput, TOutput>(
    tool: TypedToolReference<TInput, TOutput>,
    params: NoInfer<TInput>,
    context?: Message[],
  ): Promise<TOutput>;
}

/** What an Agent is built from: the LLM, the tools, the executor, and optionally its step modules. */
export interface AgentServices {
  provider: Provider;
  toolkit: ToolSource;
  executor: CallRunner;
  /** Step modules (each defaults to the basic one: BasicPrompter, VesselGenerator, FirstOptionDiscriminator, CallActor). */
  modules?: Partial<StepModules>;
  /** Message handlers for the loop's requests (R-REQ-2). */
  handlers?: AgentSettings['handlers'];
  /** Repairs per request (R-REQ-3). */
  maxRepairs?: number;
  /** Releases what the services hold; `createAgent` passes the disposal of the container it made. */
  dispose?: () => void | Promise<void>;
}

/**
 * The modular agent (seed 001, R-LOOP-1..5): a serializable state and four swappable step modules
 * (Prompter → Generator → Discriminator → Actor) that coordinate only through `state.nextStep`.
 * `run()` loops until the Vessel returns a valid output or no Calls, or a limit stops it; `step()` runs
 * exactly one module; with a `stateFile`, every step is saved atomically and `resume()` continues it.
 */
export class Agent {
  private current?: AgentState;
  /** Where a failing step rolls back to: the state as of the last checkpoint. */
  private lastGood?: StateMark;
  private stateFile?: string;
  private settings: AgentSettings;
  private runStops: StopCondition[] = [];
  private saving: Promise<void> = Promise.resolve();
  private readonly modules: StepModules;
  private release?: () => void | Promise<void>;

  constructor(
    private readonly services: AgentServices,
    private readonly config: AgentConfig = {},
  ) {
    this.modules = {
      prompter: config.modules?.prompter ?? services.modules?.prompter ?? new BasicPrompter(),
      generator: config.modules?.generator ?? services.modules?.generator ?? new VesselGenerator(),
      discriminator:
        config.modules?.discriminator ??
        services.modules?.discriminator ??
        new FirstOptionDiscriminator(),
      actor: config.modules?.actor ?? services.modules?.actor ?? new CallActor(),
    };
    this.settings = this.settingsFor({});
    this.release = services.dispose;
  }

  /** The current state (plain JSON; edit it freely between steps), or undefined before a run starts. */
  get state(): AgentState | undefined {
    return this.current;
  }

  /**
   * Releases what the agent holds (the container `createAgent` made: Activity services and their
   * instances). Idempotent; also runs on `await using agent = createAgent(...)` (Symbol.asyncDispose).
   */
  async dispose(): Promise<void> {
    const release = this.release;
    this.release = undefined;
    await release?.();
  }

  /** `await using` support: the same as {@link Agent.dispose}. */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.dispose();
  }

  /** The step modules this agent runs. */
  get stepModules(): Readonly<StepModules> {
    return this.modules;
  }

  /** Starts a new state from `options` without running anything (then `step()` or `run()`). */
  async start(options: RunOptions = {}): Promise<AgentState> {
    const state = createInitialState({
      task: options.task,
      context: options.context,
      output: options.output,
      instances: options.instances,
      limits: pickLimits(options),
    });
    await this.adopt(state, options, options.stateFile);
    return state;
  }

  /**
   * Takes over a given state (e.g. a saved one with a hand-set `nextStep`, R-LOOP-3) for `step()`/`run()`.
   * The state is checked first and used as is (not copied).
   */
  async load(
    state: AgentState,
    options: Omit<RunOptions, 'task' | 'context' | 'output'> = {},
  ): Promise<void> {
    assertValidState(state);
    await this.adopt(state, options, options.stateFile);
  }

  /**
   * Runs exactly one module (the one `state.nextStep` names) and saves the state; returns the new
   * `nextStep`. A failing module leaves the last good state (in memory and on disk), marked with the
   * stop reason `error` (or `aborted`) and the failed step as `pending`, then rethrows the error
   * (an error that is not an ideact error is wrapped in a `StepFailedError` whose `cause` it is).
   */
  async step(): Promise<NextStep> {
    const state = this.requireState();
    const step = state.nextStep;
    if (step.module === 'done') return step;
    const module = this.modules[step.module];
    this.lastGood = markState(state);
    const started = Date.now();
    try {
      await module.run(this.runtime(state));
    } catch (thrown) {
      // Every error that leaves a run is an ideact error: a custom module's own bug is wrapped.
      const error = IdeactError.isInstance(thrown)
        ? thrown
        : new StepFailedError({ step: step.module, cause: thrown });
      const restored = state;
      rollbackState(restored, this.lastGood);
      restored.usage.elapsedMs += Date.now() - started;
      const aborted = this.settings.signal?.aborted === true;
      restored.nextStep = {
        module: 'done',
        args: aborted
          ? {
              reason: 'aborted',
              pending: restored.nextStep.module === 'done' ? step : restored.nextStep,
            }
          : {
              reason: 'error',
              pending: restored.nextStep.module === 'done' ? step : restored.nextStep,
              error: error.toCallError(),
            },
      };
      await this.checkpoint();
      if (aborted) return restored.nextStep;
      throw error;
    }
    state.usage.steps += 1;
    state.usage.elapsedMs += Date.now() - started;
    await this.checkpoint();
    this.config.onStep?.({ module: step.module, state, depth: state.chain.length });
    return state.nextStep;
  }

  /**
   * Runs until the run ends (R-LOOP-3). With `task`/`context` (or no state yet) it starts a new run;
   * otherwise it continues the current state (a stopped one is resumed with the given limits).
   * Failed Calls are listed in `result.failedCalls`; with `activityErrors: 'throw'` an Activity's bug
   * resolves the run with stop reason `error` and `result.error` (other step errors still reject).
   */
  async run<TOutput = unknown>(options: RunOptions = {}): Promise<AgentResult<TOutput>> {
    if (this.current === undefined || options.task !== undefined || options.context !== undefined) {
      await this.start(options);
    } else {
      await this.adopt(this.current, options, options.stateFile ?? this.stateFile);
      this.reopen(options);
    }
    return this.traced<TOutput>();
  }

  /**
   * Continues a run saved in `stateFile` (R-LOOP-5), e.g. after a crash or a limit: the pending step is
   * run again (the Actor skips Calls that had completed), limits given here replace the stored ones,
   * and a `task` continues a finished run as a new user message.
   */
  async resume<TOutput = unknown>(
    stateFile: string,
    options: ResumeOptions = {},
  ): Promise<AgentResult<TOutput>> {
    const state = await loadState(stateFile);
    await this.adopt(state, options, stateFile);
    this.reopen(options);
    return this.traced<TOutput>();
  }

  /**
   * A typed call (issue 7) with the agent's current context: `agent.call(Lyricist, params)` checks
   * the params against the tool's types (never widened from them) and resolves to the output; always
   * rejects with the typed error when the Call fails, like `executor.call(Tool, params)`.
   */
  async call<TInput, TOutput>(
    tool: TypedToolReference<TInput, TOutput>,
    params: NoInfer<TInput>,
  ): Promise<TOutput> {
    const executor = this.services.executor as Partial<TypedCallRunner>;
    const context = this.current === undefined ? [] : contextMessages(this.current);
    if (typeof executor.call !== 'function') {
      throw new InvalidAgentStateError({
        jsonPath: '',
        reason: 'the executor does not support typed calls',
      });
    }
    return (executor as TypedCallRunner).call<TInput, TOutput>(tool, params, context);
  }

  /** Saves the state now (when the run has a state file); writes are serialized, newest state wins. */
  checkpoint(): Promise<void> {
    const state = this.current;
    if (state === undefined) return Promise.resolve();
    this.lastGood = markState(state);
    const file = this.stateFile;
    if (file === undefined) return Promise.resolve();
    // Each save serializes the state as it is when the save runs, after the previous save finished.
    const next = this.saving.then(() => saveState(file, this.current ?? state));
    this.saving = next.catch(() => undefined);
    return next;
  }

  /**
   * The run as an `invoke_agent` span (GenAI conventions): a nested agent's span is the child of the
   * `execute_tool` span of its module Call, since the OpenTelemetry context carries the parent.
   */
  private traced<TOutput>(): Promise<AgentResult<TOutput>> {
    const chain = this.requireState().chain;
    const agentName = chain.length > 0 ? moduleName(chain[chain.length - 1]) : undefined;
    const attributes: Record<string, string> = {
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.provider.name': providerName(this.services.provider.name),
    };
    if (agentName !== undefined) attributes['gen_ai.agent.name'] = agentName;
    if (this.config.model !== undefined) attributes['gen_ai.request.model'] = this.config.model;
    return withSpan(
      agentName === undefined ? 'invoke_agent' : `invoke_agent ${agentName}`,
      attributes,
      async (span) => {
        const result = await this.loop<TOutput>();
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
      { trace: this.config.trace },
    );
  }

  private async loop<TOutput>(): Promise<AgentResult<TOutput>> {
    let activityBug: AgentResult['error'];
    for (;;) {
      const state = this.requireState();
      const step = state.nextStep;
      if (step.module === 'done') break;
      const reason = stopWhen(...limitConditions(state.limits), ...this.runStops)(state, {
        signal: this.settings.signal,
      });
      if (reason !== undefined) {
        state.nextStep = { module: 'done', args: { reason, pending: step } };
        await this.checkpoint();
        break;
      }
      try {
        await this.step();
      } catch (error) {
        // step() already saved the state, stopped with reason `error`.
        if (this.settings.activityErrors !== 'throw' || !isActivityBug(error)) throw error;
        activityBug = error;
        break;
      }
    }
    const state = this.requireState();
    const done = state.nextStep as Extract<NextStep, { module: 'done' }>;
    const result: AgentResult<TOutput> = {
      output: (done.args.output ?? null) as TOutput | null,
      stopReason: done.args.reason,
      state,
      usage: state.usage,
      failedCalls: collectFailedCalls(state),
    };
    if (activityBug !== undefined) result.error = activityBug;
    return result;
  }

  /** Makes a stopped state runnable again: the pending step, or a new task after a finished run. */
  private reopen(options: ResumeOptions): void {
    const state = this.requireState();
    if (
      options.task !== undefined &&
      (state.nextStep.module === 'done' || state.nextStep.module === 'prompter')
    ) {
      appendNode(state, { type: 'text', role: 'user', text: options.task }, { module: 'user' });
      state.nextStep = { module: 'prompter', args: {} };
      return;
    }
    const step = state.nextStep;
    if (step.module === 'done' && step.args.pending !== undefined)
      state.nextStep = step.args.pending;
  }

  private async adopt(
    state: AgentState,
    options: ResumeOptions,
    stateFile: string | undefined,
  ): Promise<void> {
    this.current = state;
    this.stateFile = stateFile;
    this.settings = this.settingsFor(options);
    this.runStops = [...(this.config.stopWhen ?? []), ...(options.stopWhen ?? [])];
    Object.assign(state.limits, pickLimits(options));
    await this.checkpoint();
  }

  private settingsFor(options: ResumeOptions): AgentSettings {
    return {
      n: options.n ?? this.config.n ?? 1,
      confirm: options.confirm ?? this.config.confirm,
      signal: options.signal,
      handlers: this.services.handlers,
      maxRepairs: this.services.maxRepairs,
      model: this.config.model,
      temperature: this.config.temperature,
      promptTokenBudget: this.config.promptTokenBudget ?? DEFAULT_PROMPT_TOKEN_BUDGET,
      concurrency: this.config.actorConcurrency ?? DEFAULT_ACTOR_CONCURRENCY,
      activityErrors: this.config.activityErrors ?? 'feed',
    };
  }

  private runtime(state: AgentState): AgentRuntime {
    return {
      state,
      provider: this.services.provider,
      toolkit: this.services.toolkit,
      executor: this.services.executor,
      settings: this.settings,
      checkpoint: () => this.checkpoint(),
    };
  }

  private requireState(): AgentState {
    if (this.current === undefined) {
      throw new InvalidAgentStateError({
        jsonPath: '',
        reason: 'no run has started; call run(), start(), load() or resume() first',
      });
    }
    return this.current;
  }
}

/** A nested agent's name for traces: its module id's last segment without `.json` (`a.json` → `a`). */
function moduleName(moduleId: string): string {
  const segment = moduleId.slice(
    Math.max(moduleId.lastIndexOf('/'), moduleId.lastIndexOf('\\')) + 1,
  );
  return segment.replace(/(\.idea)?\.json$/, '') || moduleId;
}

function pickLimits(options: ResumeOptions): AgentState['limits'] {
  const limits: AgentState['limits'] = {};
  if (options.maxTurns !== undefined) limits.maxTurns = options.maxTurns;
  if (options.maxTokens !== undefined) limits.maxTokens = options.maxTokens;
  if (options.maxTimeMs !== undefined) limits.maxTimeMs = options.maxTimeMs;
  return limits;
}
