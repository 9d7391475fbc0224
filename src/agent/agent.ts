import type { IdeactError } from '../errors/ideact-error';
import { ContainerConfigurationError } from '../errors/container-configuration.error';
import { InvalidAgentStateError } from '../errors/invalid-agent-state.error';
import { NestedAgentRequiredError } from '../errors/nested-agent-required.error';
import { RunNotFoundError } from '../errors/run-not-found.error';
import type { Provider } from '../llm/provider';
import type { CallOptions } from '../calls/call-types';
import type { Call } from '../protocol/call';
import type { Message } from '../protocol/message';
import type { TypedToolReference } from '../protocol/typed-tool';
import type { RunContext } from '../runs/run-context';
import type { NestedModule, RunStore, StoredRun } from '../runs/run-store';
import type { ToolSchema } from '../protocol/tool-schema';
import type { StateFiles } from '../runs/state-files';
import type {
  AgentConfig,
  AgentResult,
  ExecutePlanOptions,
  LoadOptions,
  ResumeOptions,
  RunOptions,
  StepModules,
} from './agent-options';
import type { AgentSettings, CallRunner, ToolSource } from './agent-runtime';
import type { AgentState } from '../runs/agent-state';
import { BasicPrompter } from './basic-prompter';
import { assertDecisions } from './confirm';
import { recordDecisions } from './approvals';
import { CallActor } from './call-actor';
import { FirstOptionDiscriminator } from './first-option-discriminator';
import { Run, type RunDefinition } from './run';
import { streamRun, type RunStream } from './run-stream';
import { appendNode, assertValidState, createInitialState } from '../runs/state-tree';
import { storedCommitKey } from '../runs/run-journal';
import { VesselGenerator } from './vessel-generator';

/** An executor that can also run typed calls (the container's `Executor`). */
export interface TypedCallRunner extends CallRunner {
  call(call: Call, context: Message[], options?: CallOptions): Promise<Message[]>;
  call<TInput, TOutput>(
    tool: TypedToolReference<TInput, TOutput>,
    params: NoInfer<TInput>,
    context?: Message[],
    options?: CallOptions,
  ): Promise<TOutput>;
}

/** An executor that can check a Call without running it (the container's `Executor`). */
interface CheckingCallRunner extends CallRunner {
  check(call: Call, context: readonly Message[]): Promise<IdeactError | undefined>;
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
  /**
   * Where runs given a `stateFile` are stored: a one-run store per file (`createAgent` passes
   * `new StateFileStores()`). Without it, a `stateFile` is a ContainerConfigurationError.
   */
  stateFiles?: StateFiles;
}

/**
 * The modular agent (seed 001, R-LOOP-1..5): an immutable definition (provider, tools, executor,
 * options and four swappable step modules: Prompter → Generator → Discriminator → Actor). Each
 * `run()`, `stream()` or `start()` opens an independent {@link Run} with its own id, state, abort
 * signal, usage and events, so concurrent runs of one Agent never share anything mutable.
 */
export class Agent {
  private readonly definition: RunDefinition;
  private release?: () => void | Promise<void>;
  private readonly stateFiles?: StateFiles;
  /** Runs of this agent without a store that stopped unfinished, by id (resumable in this process). */
  private readonly unfinished = new Map<string, AgentState>();

  constructor(services: AgentServices, config: AgentConfig = {}) {
    const modules: StepModules = {
      prompter: config.modules?.prompter ?? services.modules?.prompter ?? new BasicPrompter(),
      generator: config.modules?.generator ?? services.modules?.generator ?? new VesselGenerator(),
      discriminator:
        config.modules?.discriminator ??
        services.modules?.discriminator ??
        new FirstOptionDiscriminator(),
      actor: config.modules?.actor ?? services.modules?.actor ?? new CallActor(),
    };
    this.definition = Object.freeze({
      provider: services.provider,
      toolkit: services.toolkit,
      executor: services.executor,
      handlers: services.handlers,
      maxRepairs: services.maxRepairs,
      config: Object.freeze({ ...config }),
      modules: Object.freeze(modules),
    });
    this.release = services.dispose;
    this.stateFiles = services.stateFiles;
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

  /**
   * The nested agent that runs a stored nested run's module (`header.nestedModule`), built by this
   * agent's nested-agent module runner: how a worker executes a nested run's child workflow. @internal
   */
  nestedAgent(module: NestedModule): Agent {
    const runner = (this.definition.executor as { moduleRunner?: unknown }).moduleRunner as
      { agentFor?: (module: NestedModule) => Agent } | undefined;
    if (typeof runner?.agentFor !== 'function') {
      throw new NestedAgentRequiredError({ toolName: module.toolName, module: module.id });
    }
    return runner.agentFor(module);
  }

  /** The Tools this agent offers its model (what a worker reads to find module Calls). @internal */
  listTools(): Promise<ToolSchema[]> {
    return this.definition.toolkit.list();
  }

  /** The step modules this agent runs. */
  get stepModules(): Readonly<StepModules> {
    return this.definition.modules;
  }

  /** The options every run of this agent starts from (frozen). */
  get config(): Readonly<AgentConfig> {
    return this.definition.config;
  }

  /**
   * Opens a new run without running anything: drive it with `run.step()` or `run.result()`. With
   * `options.state` it continues that state (a stopped run is reopened with the given limits, a
   * `task` after a finished run becomes a new user message); otherwise it starts from `options`.
   */
  start(options: RunOptions = {}): Run {
    if (options.state !== undefined) {
      assertValidState(options.state);
      const state = options.state;
      if (options.decisions !== undefined) recordDecisions(state, options.decisions);
      reopen(state, options);
      return this.open(state, options, options.stateFile, options.newState !== true);
    }
    const state = createInitialState({
      task: options.task,
      context: options.context,
      output: options.output,
      instances: options.instances,
      limits: pickLimits(options),
    });
    return this.open(state, options, options.stateFile, false);
  }

  /**
   * Opens a run on a given state as it is (e.g. a saved one with a hand-set `nextStep`, R-LOOP-3):
   * the state is checked first and used, not copied; the run changes it as it goes.
   */
  load(state: AgentState, options: LoadOptions = {}): Run {
    assertValidState(state);
    // A nested agent's run (it has a parent) starts on a state the runner just made: it is new.
    const resumed = options.parent === undefined;
    return this.open(state, options, options.stateFile, resumed, options.parent);
  }

  /**
   * Runs a new run to its end (R-LOOP-3) and resolves to its result; see {@link Agent.start} for
   * `options.state`. Failed Calls are in `result.failedCalls`; with `activityErrors: 'throw'` an
   * Activity's bug resolves with stop reason `error` and `result.error` (other step errors reject).
   */
  run<TOutput = unknown>(options: RunOptions = {}): Promise<AgentResult<TOutput>> {
    return this.start(options).result<TOutput>();
  }

  /**
   * Runs a new run and streams its events (also those of nested runs and module sub-requests) as
   * they happen; `stream.result` resolves to the result. Iterating is optional: leaving the loop
   * early only stops reading (use `stream.abort()` to stop the run).
   */
  stream<TOutput = unknown>(options: RunOptions = {}): RunStream<TOutput> {
    return streamRun<TOutput>(this.start(options));
  }

  /**
   * Continues a run, by its id or by its `stateFile` (R-LOOP-5), e.g. after a crash, a limit or an
   * approval: the pending step is run again (the Actor skips Calls that had completed), limits given
   * here replace the stored ones, and a `task` continues a finished run as a new user message. The
   * run keeps its id.
   */
  async resume<TOutput = unknown>(
    target: string,
    options: ResumeOptions = {},
  ): Promise<AgentResult<TOutput>> {
    return (await this.resumeRun(target, options)).result<TOutput>();
  }

  /** Like {@link Agent.resume}, streaming the continued run's events. */
  async resumeStream<TOutput = unknown>(
    target: string,
    options: ResumeOptions = {},
  ): Promise<RunStream<TOutput>> {
    return streamRun<TOutput>(await this.resumeRun(target, options));
  }

  /**
   * Runs the plan a lazily planned run stopped at (plan mode `lazy`, stop reason `planned`,
   * R-FLOW-5): `decisions` (one per `result.plan` entry, in order: approve, edit or reject) replace the
   * `confirm` hook for these Calls and are saved with the state. The run then goes on; in plan mode
   * `lazy` its next turn with Calls stops at the next plan.
   */
  executePlan<TOutput = unknown>(
    planned: Pick<AgentResult, 'state'>,
    options: ExecutePlanOptions = {},
  ): Promise<AgentResult<TOutput>> {
    const state = planned.state;
    const done = state.nextStep;
    const pending = done.module === 'done' ? done.args.pending : undefined;
    if (done.module !== 'done' || done.args.reason !== 'planned' || pending?.module !== 'actor') {
      return Promise.reject(
        new InvalidAgentStateError({
          jsonPath: '/nextStep',
          reason: 'executePlan() needs a run that stopped with reason "planned" (plan mode lazy)',
        }),
      );
    }
    const { decisions, ...runOptions } = options;
    if (decisions !== undefined) {
      const count = plannedCount(state, pending.args.nodeId);
      assertDecisions(decisions, count, 'plan');
      pending.args.decisions = structuredClone(decisions);
    }
    return this.run<TOutput>({ ...runOptions, state });
  }

  /**
   * A typed call (issue 7) outside any run: `agent.call(Lyricist, params)` checks the params against
   * the tool's types (never widened from them) and resolves to the output; always rejects with the
   * typed error when the Call fails, like `executor.call(Tool, params)`. It takes the same call
   * pipeline as the agent's runs, with the agent's `model` and `temperature`; the caller is the
   * approver, so a Tool that needs approval runs (ask a person before calling it).
   */
  async call<TInput, TOutput>(
    tool: TypedToolReference<TInput, TOutput>,
    params: NoInfer<TInput>,
  ): Promise<TOutput> {
    const executor = this.definition.executor as Partial<TypedCallRunner>;
    if (typeof executor.call !== 'function') {
      throw new InvalidAgentStateError({
        jsonPath: '',
        reason: 'the executor does not support typed calls',
      });
    }
    const config = this.definition.config;
    return (executor as TypedCallRunner).call<TInput, TOutput>(tool, params, [], {
      settings: { model: config.model, temperature: config.temperature },
      approval: 'caller',
    });
  }

  /**
   * Checks a Call as this agent's runs would before running it — its Tool exists, its params
   * validate against the Tool's schema and validators — without running it: the typed error the
   * Call would fail with, or undefined. Uses the executor's own check (the call pipeline's steps).
   */
  async check(call: Call): Promise<IdeactError | undefined> {
    const executor = this.definition.executor as Partial<CheckingCallRunner>;
    if (typeof executor.check !== 'function') return undefined;
    return executor.check(call, []);
  }

  /**
   * Opens a stored run without running it (see {@link Agent.resume}): `runId` is looked up in the
   * store (`options.store`, else the agent's), or, without a store, among this process's unfinished
   * runs; a path ending in `.json` names a state file (a one-run store; an older whole-state file is
   * imported into one first, and left as it was).
   */
  async resumeRun(runId: string, options: ResumeOptions = {}): Promise<Run> {
    if (isStateFile(runId)) {
      // A state file names a one-run store (an older whole-state file is imported into one first).
      const opened = await this.requireStateFiles().open(runId);
      return this.resumeStored(opened.run, opened.store, options);
    }
    const store = options.store ?? this.definition.config.store;
    if (store !== undefined) {
      const stored = await store.load(runId);
      if (stored === undefined) throw new RunNotFoundError({ runId, location: 'the run store' });
      return this.resumeStored(stored, store, options);
    }
    const state = this.unfinished.get(runId);
    if (state === undefined)
      throw new RunNotFoundError({
        runId,
        location:
          "this process's unfinished runs (a run without a store resumes only in the process that ran it; give the agent a store, e.g. new FileRunStore(), to resume it anywhere)",
      });
    if (options.decisions !== undefined) recordDecisions(state, options.decisions);
    reopen(state, options);
    return this.open(state, options, undefined, true);
  }

  /**
   * Opens a run its caller already loaded from `store` (what {@link Agent.resumeRun} does after its
   * `load`), so a worker holding the run does not read it again. @internal
   */
  resumeLoaded(stored: StoredRun, store: RunStore, options: ResumeOptions = {}): Run {
    return this.resumeStored(stored, store, options);
  }

  /** Reopens a run loaded from `store` (decisions recorded, limits replaced); it keeps its id. */
  private resumeStored(stored: StoredRun, store: RunStore, options: ResumeOptions): Run {
    // What the store holds, before this resume changes it: opening writes a commit only if it did.
    const lastCommit = storedCommitKey(stored.state, stored.status);
    if (options.decisions !== undefined) recordDecisions(stored.state, options.decisions);
    reopen(stored.state, options);
    Object.assign(stored.state.limits, pickLimits(options));
    return new Run(this.definition, stored.state, {
      options,
      resumed: true,
      store,
      stored: true,
      attempts: stored.attempts,
      lastCommit,
    });
  }

  /** The agent's state-file stores; a ContainerConfigurationError when it was built without them. */
  private requireStateFiles(): StateFiles {
    if (this.stateFiles !== undefined) return this.stateFiles;
    throw new ContainerConfigurationError({
      setting: 'stateFile',
      api: 'agent.run',
      problem:
        'this Agent was built without state-file stores (AgentServices.stateFiles), so it cannot keep a run in a state file.',
      solutions: [
        'Build the agent with createAgent(config), which provides them.',
        "Or pass stateFiles: new StateFileStores() (from 'ideact') to new Agent(services).",
        'Or give the run a store instead: { store: new FileRunStore() }.',
      ],
    });
  }

  private open(
    state: AgentState,
    options: ResumeOptions,
    stateFile: string | undefined,
    resumed: boolean,
    parent?: RunContext,
  ): Run {
    Object.assign(state.limits, pickLimits(options));
    // A state file is a store of one run (issue 18): it wins over the agent's or the run's store.
    const store =
      parent !== undefined
        ? undefined
        : stateFile !== undefined
          ? this.requireStateFiles().storeFor(stateFile)
          : (options.store ?? this.definition.config.store);
    return new Run(this.definition, state, {
      options,
      parent,
      resumed,
      store,
      // Without a store, an unfinished run stays resumable by id in this process (and only it).
      remember:
        store === undefined && parent === undefined
          ? (id, ended) => {
              this.unfinished.delete(id);
              if (ended === undefined) return;
              this.unfinished.set(id, ended);
              // Bounded: the oldest unfinished run is forgotten first (give the agent a store to keep all).
              if (this.unfinished.size > MAX_UNFINISHED_RUNS) {
                const oldest = this.unfinished.keys().next().value;
                if (oldest !== undefined) this.unfinished.delete(oldest);
              }
            }
          : undefined,
    });
  }
}

/** How many unfinished runs an agent without a store keeps for `resume(runId)` (the newest). */
export const MAX_UNFINISHED_RUNS = 1_000;

/** True for a state file path (the older resume form), false for a run id. */
function isStateFile(target: string): boolean {
  return target.endsWith('.json') || target.includes('/') || target.includes('\\');
}

/** How many Calls of Vessel node `nodeId` have no result yet (the plan's length). */
function plannedCount(state: AgentState, nodeId: number): number {
  const node = state.nodes[nodeId];
  if (node?.message.type !== 'vessel') return 0;
  let recorded = 0;
  for (let id = nodeId + 1; id < state.nodes.length; id++) {
    if (state.nodes[id]?.metadata.source?.nodeId === nodeId) recorded += 1;
  }
  return node.message.calls.length - recorded;
}

/** Makes a stopped state runnable again: the pending step, or a new task after a finished run. */
function reopen(state: AgentState, options: ResumeOptions): void {
  if (
    options.task !== undefined &&
    (state.nextStep.module === 'done' || state.nextStep.module === 'prompter')
  ) {
    appendNode(state, { type: 'text', role: 'user', text: options.task }, { module: 'user' });
    state.nextStep = { module: 'prompter', args: {} };
    return;
  }
  const step = state.nextStep;
  if (step.module === 'done' && step.args.pending !== undefined) state.nextStep = step.args.pending;
}

function pickLimits(options: ResumeOptions): AgentState['limits'] {
  const limits: AgentState['limits'] = {};
  if (options.maxTurns !== undefined) limits.maxTurns = options.maxTurns;
  if (options.maxTokens !== undefined) limits.maxTokens = options.maxTokens;
  if (options.maxTimeMs !== undefined) limits.maxTimeMs = options.maxTimeMs;
  return limits;
}
