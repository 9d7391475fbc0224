import { InvalidAgentStateError } from '../errors/invalid-agent-state.error';
import { NestedAgentStoppedError } from '../errors/nested-agent-stopped.error';
import type { Provider } from '../llm/provider';
import { Executor, type ExecutorOptions } from '../calls/executor';
import type { MessageHandler } from '../requests/message-handler';
import {
  moduleSettings,
  RequestModuleRunner,
  type ModuleRunInput,
  type ModuleRunner,
} from '../calls/module-runner';
import { Toolkit } from '../calls/toolkit';
import { Agent } from './agent';
import type { AgentConfig, StepModules } from './agent-options';
import { createInitialState } from '../runs/state-tree';
import type { AgentState } from '../runs/agent-state';
import { nestedRunId } from '../runs/nested-run-gate';
import type { NestedModule } from '../runs/run-store';
import { vesselOutput, vesselTools } from '../protocol/vessel-idea';
import { DEFAULT_NESTED_LIMITS } from './nested-limits';

export { DEFAULT_NESTED_LIMITS } from './nested-limits';

/** What a {@link NestedAgentRunner} needs. */
export interface NestedAgentRunnerOptions {
  provider: Provider;
  /** Runs modules that are not Vessels (one Request). */
  fallback: ModuleRunner;
  /** Options of nested agents (n, model, nestedLimits…); `confirm` and `stopWhen` are not inherited. */
  config?: AgentConfig;
  /** Step modules of nested agents (default: the basic ones). */
  modules?: Partial<StepModules>;
  handlers?: MessageHandler[];
  maxRepairs?: number;
}

/**
 * The agent loop's ModuleRunner (R-MOD-5): a module whose schema is a Vessel (its `calls` offer Tools)
 * runs as a nested Agent in the clean room the Executor assembled, with the module's Tools, one level
 * deeper and the chain extended (the Executor checks depth and cycles). Its final state goes to the
 * parent's result node (`metadata.nested`); its output is the Call's output. Other modules run as one
 * Request through `fallback`.
 */
export class NestedAgentRunner implements ModuleRunner {
  private root?: Executor;

  constructor(private readonly options: NestedAgentRunnerOptions) {}

  /** Binds the top-level executor whose `child()` executors nested agents use. */
  attach(executor: Executor): this {
    this.root = executor;
    return this;
  }

  async run(input: ModuleRunInput): Promise<unknown> {
    const tools = vesselTools(input.schema);
    if (tools === undefined) return this.options.fallback.run(input);
    const module: NestedModule = {
      id: input.module.id,
      toolName: input.call._tool,
      schema: input.schema,
      depth: input.depth,
      chain: [...input.chain],
    };
    // The run's model settings (the module Idea's own win) go with the nested agent (DESIGN §8).
    const settings = moduleSettings(input);
    if (settings.model !== undefined || settings.temperature !== undefined) {
      module.settings = settings;
    }
    const limits = { ...DEFAULT_NESTED_LIMITS, ...this.options.config?.nestedLimits };
    const initial = createInitialState({
      context: input.context,
      output: vesselOutput(input.schema),
      limits,
      chain: input.chain,
    });
    // A worker runs the nested run as a child workflow (issue 18): any worker may execute it.
    const gate = input.run?.nestedRuns;
    const callId = input.run?.path[input.run.path.length - 1];
    if (gate !== undefined && input.run !== undefined && callId !== undefined) {
      const runId = nestedRunId(input.run.runId, callId);
      const final = await gate({
        runId,
        parentRunId: input.run.runId,
        parentCallId: callId,
        module,
        state: { ...initial, runId },
        ...(input.signal === undefined ? {} : { signal: input.signal }),
      });
      if (final !== undefined) {
        input.onNestedRun?.(final);
        return nestedOutput(final, input.chain);
      }
    }
    const run = this.agentFor(module).load(initial, { signal: input.signal, parent: input.run });
    let result;
    try {
      result = await run.result();
    } finally {
      input.onNestedRun?.(run.state);
    }
    // activityErrors: 'throw' ended the nested run on an Activity's bug: end the parent's run too.
    if (result.error !== undefined) throw result.error;
    return nestedOutput(result.state, input.chain);
  }

  /**
   * The nested Agent of `module`: its Tools from the module's Vessel schema, run by a child of the
   * attached executor one level deeper (the Executor checks depth and cycles), with this runner's
   * options. A worker rebuilds a child workflow's agent this way from its stored header.
   */
  agentFor(module: NestedModule): Agent {
    const tools = vesselTools(module.schema);
    if (tools === undefined) {
      throw new InvalidAgentStateError({
        jsonPath: '/nestedModule/schema',
        reason: `the schema of module ${module.id} is not a Vessel (its \`calls\` offer no Tools), so no nested agent runs it`,
      });
    }
    if (this.root === undefined) {
      throw new InvalidAgentStateError({
        jsonPath: '',
        reason: 'NestedAgentRunner.attach(executor) was not called before a nested module ran',
      });
    }
    const executor = this.root.child({ tools, depth: module.depth, chain: module.chain });
    const toolkit = new Toolkit({ tools, loader: executor.moduleLoader });
    const { confirm: _confirm, stopWhen: _stopWhen, ...config } = this.options.config ?? {};
    if (module.settings?.model !== undefined) config.model = module.settings.model;
    if (module.settings?.temperature !== undefined)
      config.temperature = module.settings.temperature;
    return new Agent(
      {
        provider: this.options.provider,
        toolkit,
        executor,
        modules: this.options.modules,
        handlers: this.options.handlers,
        maxRepairs: this.options.maxRepairs,
      },
      config,
    );
  }
}

/**
 * A nested run's output from its final state; without one (a limit, an error, no Calls and no
 * output) the Call would return null where its Tool promises the module's output: a typed error.
 */
function nestedOutput(state: AgentState, chain: string[]): unknown {
  const done = state.nextStep;
  const reason = done.module === 'done' ? done.args.reason : 'error';
  if (reason === 'output' && done.module === 'done') return done.args.output ?? null;
  throw new NestedAgentStoppedError({
    chain,
    reason,
    detail:
      reason === 'no_calls'
        ? 'it returned no Calls and no output'
        : done.module === 'done'
          ? done.args.error?.message
          : undefined,
  });
}

/** Options of {@link executorWithNestedAgents}: an Executor's, plus what its nested agents use. */
export interface NestedAgentExecutorOptions extends Omit<ExecutorOptions, 'moduleRunner'> {
  /** Options of nested agents (model, n, nestedLimits…); `confirm` and `stopWhen` are not inherited. */
  config?: AgentConfig;
  /** Step modules of nested agents (default: the basic ones). */
  modules?: Partial<StepModules>;
}

/**
 * An Executor whose agent modules (Vessel Ideas, R-MOD-5) run as nested agents, so a typed
 * `executor.call(AgentIdeaTool, params)` executes the Idea's Calls and returns its final output;
 * other modules run as one request. `createContainer` builds its Executor this way.
 */
export function executorWithNestedAgents(options: NestedAgentExecutorOptions): Executor {
  const { config, modules, ...executorOptions } = options;
  const runner = new NestedAgentRunner({
    provider: options.provider,
    fallback: new RequestModuleRunner({
      provider: options.provider,
      handlers: options.handlers,
      maxRepairs: options.maxRepairs,
    }),
    config,
    modules,
    handlers: options.handlers,
    maxRepairs: options.maxRepairs,
  });
  const executor = new Executor({ ...executorOptions, moduleRunner: runner });
  runner.attach(executor);
  return executor;
}
