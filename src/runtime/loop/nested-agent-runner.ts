import { InvalidAgentStateError } from '../../errors/invalid-agent-state.error';
import { NestedAgentStoppedError } from '../../errors/nested-agent-stopped.error';
import type { Provider } from '../../llm/provider';
import type { Executor } from '../executor';
import type { MessageHandler } from '../request/message-handler';
import type { ModuleRunInput, ModuleRunner } from '../module-runner';
import { Toolkit } from '../toolkit';
import { Agent } from './agent';
import type { AgentConfig, StepModules } from './agent-options';
import { createInitialState } from './state-tree';
import { vesselOutput, vesselTools } from './vessel-module';

/** Default limits of a nested agent: enough for a specialist, bounded so a loop cannot run away. */
export const DEFAULT_NESTED_LIMITS = { maxTurns: 10 };

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
    if (this.root === undefined) {
      throw new InvalidAgentStateError({
        jsonPath: '',
        reason: 'NestedAgentRunner.attach(executor) was not called before a nested module ran',
      });
    }
    const executor = this.root.child({ tools, depth: input.depth, chain: input.chain });
    const toolkit = new Toolkit({ tools, loader: executor.moduleLoader });
    const { confirm: _confirm, stopWhen: _stopWhen, ...config } = this.options.config ?? {};
    const agent = new Agent(
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
    const limits = { ...DEFAULT_NESTED_LIMITS, ...this.options.config?.nestedLimits };
    await agent.load(
      createInitialState({
        context: input.context,
        output: vesselOutput(input.schema),
        limits,
        chain: input.chain,
      }),
    );
    let result;
    try {
      result = await agent.run({ signal: input.signal });
    } finally {
      if (agent.state !== undefined) input.onNestedRun?.(agent.state);
    }
    if (result.stopReason !== 'output' && result.stopReason !== 'no_calls') {
      const done = result.state.nextStep;
      throw new NestedAgentStoppedError({
        chain: input.chain,
        reason: result.stopReason,
        detail: done.module === 'done' ? done.args.error?.message : undefined,
      });
    }
    return result.output;
  }
}
