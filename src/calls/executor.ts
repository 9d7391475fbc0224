import type { Provider } from '../llm/provider';
import type { Call } from '../protocol/call';
import type { Message } from '../protocol/message';
import { toolName } from '../protocol/read-tool';
import { latestToolDefinitions } from '../protocol/tool-override';
import type { ToolSchema } from '../protocol/tool-schema';
import type { TypedToolReference } from '../protocol/typed-tool';
import type { ParamsTransformer } from './activity';
import { runBatch, type BatchMode, type BatchOptions, type BatchResult } from './batch';
import type { CallEnvironment, CallOptions, CallRun } from './call-types';
import { checkCall, runCall } from './call-pipeline';
import type { IdeactError } from '../errors/ideact-error';
import type { NeedsApproval } from './call-approval';
import type { MessageHandler } from '../requests/message-handler';
import { ModuleLoader } from './module-loader';
import { RequestModuleRunner, type ModuleRunner } from './module-runner';
import { normalizeExecutorActivities, type ExecutorActivities } from './executor-activities';
import { resolveExecutorTools, type ExecutorToolClass } from './tool-class-resolver';
import { combinedTools, splitToolsets, ToolsetWatch, type Toolset } from './toolset';
import type { ActivityFunction } from './activity';

/** Options of an {@link Executor}. */
export interface ExecutorOptions {
  /** The LLM backend module sub-requests use (through the default ModuleRunner). */
  provider: Provider;
  /**
   * The Tools Calls may use, by their `_tool` name (a name given twice keeps its later definition,
   * R-TOOL-5): ToolSchemas and/or `@Tool` classes, which are checked and get params transformers
   * exactly as in `createContainer`; and Toolsets (e.g. `mcpTools(server)`), whose current Tools
   * follow the others and whose Activities join `activities`, read again before each Call.
   */
  tools: Array<ToolSchema | ExecutorToolClass | Toolset>;
  /**
   * Activities, as maps by name: `[{ add: (params) => … }]` (createContainer's shape without service
   * classes). A Tool runs the one named by `_activity`, else the one named like the Tool (R-TOOL-2).
   * A single map (`{ add }`) is deprecated.
   */
  activities?: ExecutorActivities;
  /** Root directory for module Idea files (default `process.cwd()`); ignored when `moduleLoader` is given. */
  moduleRoot?: string;
  /** Hosts allowed to serve module URLs (default none); ignored when `moduleLoader` is given. */
  allowedModuleHosts?: string[];
  /** Max Calls in flight per batch (default: no cap). */
  concurrency?: number;
  /**
   * Model name for module sub-requests and nested agents when the Call's run gives none (a run's own
   * `model` wins; a module Idea's `settings.model` wins over both).
   */
  model?: string;
  /** Sampling temperature for module sub-requests, like `model`. */
  temperature?: number;
  /**
   * Calls for which it returns true need a person's approval (as do Calls of Tools with
   * `needsApproval: true`): entry points that ask a person (the agent loop, MCP) ask before they run.
   */
  needsApproval?: NeedsApproval;
  /** Max module nesting depth (default 4); deeper modules fail with `ModuleDepthError`. */
  maxModuleDepth?: number;
  /** A shared loader (its cache and limits); default: a new one from `moduleRoot`/`allowedModuleHosts`. */
  moduleLoader?: ModuleLoader;
  /** Runs module sub-requests; default: one `request()` per module Call. */
  moduleRunner?: ModuleRunner;
  /** Message handlers for module sub-requests (default runner only). */
  handlers?: MessageHandler[];
  /** Repair attempts for module sub-requests (default runner only). */
  maxRepairs?: number;
  /**
   * Per tool name: converts/validates the params of explicit Calls before the Activity runs (`@Tool`
   * classes get theirs; an entry here replaces it).
   */
  paramsTransformers?: Record<string, ParamsTransformer>;
  /** Depth of this executor in the module hierarchy (0 = top level); set by {@link Executor.child}. */
  depth?: number;
  /** Module ids from the root to this executor's module; set by {@link Executor.child}. */
  chain?: string[];
  /**
   * Toolsets whose Activities this executor runs without offering their Tools: a nested module's
   * executor keeps its parent's, since the module's Tools may name theirs. Set by {@link Executor.child}.
   */
  activityToolsets?: Toolset[];
}

/** Where a child executor runs: its tools (default: the parent's), depth and module chain. */
export interface ChildExecutorOptions {
  /** The Tools the nested module offers (default: the parent's). */
  tools?: ToolSchema[];
  /** The child's depth: pass `ModuleRunInput.depth`. */
  depth: number;
  /** The child's module chain: pass `ModuleRunInput.chain`. */
  chain: string[];
}

/** Calls of one batch run all at once unless the user caps them (`concurrency`). */
const DEFAULT_CONCURRENCY = Number.POSITIVE_INFINITY;
const DEFAULT_MAX_MODULE_DEPTH = 4;

/**
 * Runs Calls on both axes (R-CALL-1): Scope (inline | module) × Method (latent | explicit), with
 * imports, `†` references, output paths and instances. `call(call, context)` never rejects for a
 * failing Call (R-CALL-5), `call(Tool, params)` always does; `all`/`any`/`race` run batches under a
 * concurrency limit (R-CALL-4).
 */
export class Executor {
  /** The module loader (shared with child executors). */
  readonly moduleLoader: ModuleLoader;
  /** Depth in the module hierarchy (0 = top level). */
  readonly depth: number;
  /** Module ids from the root to this executor's module. */
  readonly chain: readonly string[];
  private readonly options: ExecutorOptions;
  private readonly environment: CallEnvironment;
  private readonly concurrency: number;
  private activityNameSet?: ReadonlySet<string>;
  /** The Tools given as classes and schemas (Toolsets' Tools are added by {@link refresh}). */
  private readonly fixedTools: readonly ToolSchema[];
  private readonly fixedActivities: Readonly<Record<string, ActivityFunction>>;
  private readonly toolsets: readonly Toolset[];
  private readonly activityToolsets: readonly Toolset[];
  private readonly watch: ToolsetWatch;
  private currentTools: readonly ToolSchema[];

  constructor(options: ExecutorOptions) {
    const activities = normalizeExecutorActivities(options.activities);
    const { toolsets, others } = splitToolsets(options.tools);
    this.toolsets = toolsets;
    this.activityToolsets = options.activityToolsets ?? [];
    const toolsetActivityNames = [...this.activityToolsets, ...toolsets].flatMap((toolset) =>
      Object.keys(toolset.activities),
    );
    const resolved = resolveExecutorTools(others, [
      ...Object.keys(activities),
      ...toolsetActivityNames,
    ]);
    // R-TOOL-5: a name defined twice keeps its later definition.
    this.fixedTools = latestToolDefinitions(resolved?.tools ?? (others as ToolSchema[]));
    this.fixedActivities = activities;
    this.watch = new ToolsetWatch([...this.activityToolsets, ...toolsets]);
    this.currentTools = combinedTools(this.fixedTools, toolsets);
    const paramsTransformers = {
      ...resolved?.paramsTransformers,
      ...(options.paramsTransformers ?? {}),
    };
    this.depth = options.depth ?? 0;
    this.chain = [...(options.chain ?? [])];
    this.concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
    this.moduleLoader =
      options.moduleLoader ??
      new ModuleLoader({
        moduleRoot: options.moduleRoot,
        allowedHosts: options.allowedModuleHosts,
      });
    const runner =
      options.moduleRunner ??
      new RequestModuleRunner({
        provider: options.provider,
        handlers: options.handlers,
        maxRepairs: options.maxRepairs,
      });
    this.environment = {
      tools: indexTools(this.currentTools),
      activities: this.collectActivities(),
      paramsTransformers,
      loader: this.moduleLoader,
      runner,
      depth: this.depth,
      chain: this.chain,
      maxModuleDepth: options.maxModuleDepth ?? DEFAULT_MAX_MODULE_DEPTH,
      entries: new Map(),
      settings: {
        ...(options.model === undefined ? {} : { model: options.model }),
        ...(options.temperature === undefined ? {} : { temperature: options.temperature }),
      },
      ...(options.needsApproval === undefined ? {} : { needsApproval: options.needsApproval }),
    };
    // Share the resolved defaults with children, so they use the same loader and runner.
    // Children get the resolved tools and activities, so classes are not resolved twice.
    this.options = {
      ...options,
      tools: [...this.fixedTools, ...toolsets],
      activities: [activities],
      activityToolsets: [...this.activityToolsets],
      paramsTransformers,
      moduleLoader: this.moduleLoader,
      moduleRunner: runner,
    };
  }

  /** The Tools this executor knows: the given ones, then each Toolset's current Tools. */
  get tools(): readonly ToolSchema[] {
    this.refresh();
    return this.currentTools;
  }

  /** The runner that executes module sub-requests (R-MOD-1); nested agents install theirs here. */
  get moduleRunner(): ModuleRunner {
    return this.environment.runner;
  }

  /** Names of the registered Activities: decides which Tools are explicit by their own name (R-TOOL-2). */
  get activityNames(): ReadonlySet<string> {
    this.refresh();
    this.activityNameSet ??= new Set(Object.keys(this.environment.activities));
    return this.activityNameSet;
  }

  /**
   * Message form: executes one Call and resolves to `[result, ...statePatches]`. NEVER rejects for a
   * failed Call (unknown tool, invalid params, a throwing Activity, …): the failure is the result
   * `{ type: 'result', call, error: { code, message } }` the LLM sees next (R-CALL-5). A Call that
   * needs approval runs unless `options.approval` asks a person: code that calls is its own
   * approver; when the approval answers `hold`, nothing runs and it resolves to `[]`.
   */
  call(call: Call, context: readonly Message[], options?: CallOptions): Promise<Message[]>;
  /**
   * Typed form: runs `{ _tool: tool.toolName, ...params }` and resolves to its output, typed by the
   * reference (codegen classes carry the types; `params` is checked against them, never widened).
   * ALWAYS rejects when the Call fails, with the same typed IdeactError the Message form puts in its
   * result: an IdeactError keeps its class; a plain error an Activity throws arrives as
   * `ActivityFailedError`, any other as `CallFailedError`, the original as `cause`. `_outputPath`
   * patches are not returned. The caller is the approver: a Tool with `needsApproval` runs.
   */
  call<TInput, TOutput>(
    tool: TypedToolReference<TInput, TOutput>,
    params: NoInfer<TInput>,
    context?: Message[],
    options?: CallOptions,
  ): Promise<TOutput>;
  call(
    first: Call | TypedToolReference<unknown, unknown>,
    second?: unknown,
    third?: unknown,
    fourth?: unknown,
  ): Promise<unknown> {
    // Not async: the agent loop calls this once per Call, and an async frame around `run` cost
    // more than the `then` (issue 28). Anything thrown still arrives as a rejection.
    try {
      if (isTypedReference(first)) {
        const call: Call = { ...(second as Record<string, unknown>), _tool: first.toolName };
        return this.run(call, (third as Message[] | undefined) ?? [], fourth as CallOptions).then(
          (run) => {
            if (run.error) throw run.error;
            return run.output;
          },
        );
      }
      return this.run(first, (second as Message[] | undefined) ?? [], third as CallOptions).then(
        (run) => run.messages,
      );
    } catch (error) {
      return Promise.reject(error as Error);
    }
  }

  /**
   * Like {@link call} but also returns the output or the typed error: the call pipeline itself
   * (DESIGN §8), which every entry point (the loop, MCP, the playground, workers) goes through.
   */
  run(call: Call, context: readonly Message[], options?: CallOptions): Promise<CallRun> {
    this.refresh();
    return runCall(this.environment, call, context, options);
  }

  /**
   * Checks a Call without running it — the pipeline's own first steps: its Tool exists, its `†`
   * references resolve in `context`, its params validate (schema and class validators). Resolves to
   * the typed error the Call would fail with (`UnknownToolError`, `InvalidParamsError`, …), or undefined.
   */
  check(call: Call, context: readonly Message[] = []): Promise<IdeactError | undefined> {
    this.refresh();
    return checkCall(this.environment, call, context);
  }

  /** All must succeed (R-CALL-4): on the first failure, the rest is cancelled. */
  all(calls: Call[], context: readonly Message[], options?: BatchOptions): Promise<BatchResult> {
    return this.batch('all', calls, context, options);
  }

  /** First success wins; the others are cancelled. `ok` is false when every Call failed. */
  any(calls: Call[], context: readonly Message[], options?: BatchOptions): Promise<BatchResult> {
    return this.batch('any', calls, context, options);
  }

  /** First settled (success or failure) wins; the others are cancelled. */
  race(calls: Call[], context: readonly Message[], options?: BatchOptions): Promise<BatchResult> {
    return this.batch('race', calls, context, options);
  }

  /** Runs every Call regardless of failures (what an Actor does with the LLM's Calls). */
  allSettled(
    calls: Call[],
    context: readonly Message[],
    options?: BatchOptions,
  ): Promise<BatchResult> {
    return this.batch('allSettled', calls, context, options);
  }

  /**
   * An executor for a nested module (R-MOD-5) sharing provider, activities, loader and runner, at
   * the depth and chain a ModuleRunner received, so depth limits and cycle checks carry through.
   */
  child(options: ChildExecutorOptions): Executor {
    return new Executor({
      ...this.options,
      tools: options.tools ?? this.options.tools,
      // The module's own Tools may name a Toolset's Activities: the child can run them.
      activityToolsets:
        options.tools === undefined
          ? [...this.activityToolsets]
          : [...this.activityToolsets, ...this.toolsets],
      depth: options.depth,
      chain: options.chain,
    });
  }

  /** The same executor with other Tools (same depth and chain). */
  withTools(tools: ToolSchema[]): Executor {
    return this.child({ tools, depth: this.depth, chain: [...this.chain] });
  }

  /**
   * Takes in the Toolsets' current Tools and Activities when a list changed since the last look
   * (Toolsets signal a change with a new `tools` array), so the next Call sees them.
   */
  private refresh(): void {
    if (!this.watch.changed()) return;
    this.currentTools = combinedTools(this.fixedTools, this.toolsets);
    this.environment.tools = indexTools(this.currentTools);
    this.environment.activities = this.collectActivities();
    this.environment.entries = new Map();
    this.activityNameSet = undefined;
  }

  /** The given Activities, then the Toolsets' (inherited ones first). */
  private collectActivities(): Record<string, ActivityFunction> {
    const merged: Record<string, ActivityFunction> = { ...this.fixedActivities };
    for (const toolset of [...this.activityToolsets, ...this.toolsets]) {
      Object.assign(merged, toolset.activities);
    }
    return merged;
  }

  private batch(
    mode: BatchMode,
    calls: Call[],
    context: readonly Message[],
    options: BatchOptions = {},
  ): Promise<BatchResult> {
    return runBatch(
      mode,
      calls,
      (call, signal) => this.run(call, context, { signal, instance: options.instance }),
      { concurrency: options.concurrency ?? this.concurrency, signal: options.signal },
    );
  }
}

function isTypedReference(value: unknown): value is TypedToolReference<unknown, unknown> {
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return false;
  return typeof (value as { toolName?: unknown }).toolName === 'string' && !('_tool' in value);
}

function indexTools(tools: readonly ToolSchema[]): Map<string, ToolSchema> {
  const byName = new Map<string, ToolSchema>();
  for (const tool of tools) byName.set(toolName(tool), tool);
  return byName;
}
