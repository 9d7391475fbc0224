import type { IdeactError } from '../errors/ideact-error';
import type { Usage } from '../llm/provider';
import type { Call } from '../protocol/call';
import type { Message } from '../protocol/message';
import type { JsonValidator } from '../protocol/json-validation';
import type { ToolInfo } from '../protocol/tool-info';
import type { ToolSchema } from '../protocol/tool-schema';
import type { ActivityFunction, ParamsTransformer } from './activity';
import type { CallApproval, ConfirmDecision, NeedsApproval } from './call-approval';
import type { CallSettings } from './call-settings';

export type { CallSettings } from './call-settings';
import type { ModuleLoader } from './module-loader';
import type { ModuleRunner } from './module-runner';
import type { RunContext } from '../runs/run-context';

/**
 * The types a Call's execution passes between its steps (execute-call, execute-inline,
 * execute-module); in their own file so those steps do not import each other in a circle.
 */

/** What executing a Call needs from its Executor (one object so the steps stay plain functions). @internal */
export interface CallEnvironment {
  tools: ReadonlyMap<string, ToolSchema>;
  activities: Readonly<Record<string, ActivityFunction>>;
  paramsTransformers: Readonly<Record<string, ParamsTransformer>>;
  loader: ModuleLoader;
  runner: ModuleRunner;
  /** Depth of the executor: 0 for the top-level agent, +1 per module level. */
  depth: number;
  /** Module ids from the root to the executor's own module. */
  chain: readonly string[];
  maxModuleDepth: number;
  /** The executor's request settings (its container's `model`, `temperature`); a Call's own win. */
  settings: CallSettings;
  /** The executor's approval predicate (the container's `needsApproval`), besides the Tools' flags. */
  needsApproval?: NeedsApproval;
  /**
   * Each Tool as the pipeline reads it (its info, Activity and params validator), made on its first
   * Call and kept until the Tools or Activities change (the executor then starts a new map).
   */
  entries: Map<string, ToolEntry>;
}

/** A Tool read once for the pipeline: what every Call of it needs before it runs. @internal */
export interface ToolEntry {
  tool: ToolSchema;
  info: ToolInfo;
  /** The Activity that runs it (R-TOOL-2), `''` for latent. */
  activity: string;
  /** The params schema, compiled once. */
  validateParams: JsonValidator;
}

/** Per-call options: cancellation and the default instance. */
export interface CallOptions {
  /** Aborting it cancels the Call: its result becomes a `CALL_CANCELLED` error. */
  signal?: AbortSignal;
  /** The instance the Call works on when it sets no `_instance` itself (R-INST-1). */
  instance?: string;
  /**
   * The Call's place in a run (the run's context `forCall(callId)`): its module sub-requests and
   * nested agents report their events and usage through it. Without it they report nowhere.
   */
  run?: RunContext;
  /**
   * Receives the token usage of each LLM request the Call makes (module sub-requests and nested
   * agents'). An adapter over the `request-end` events of `run` (kept for callers of `executor.call`).
   */
  onUsage?: (usage: Usage) => void;
  /**
   * Receives the final state of each nested agent a module Call ran (R-MOD-5); typed `unknown` here
   * because the agent loop, not the executor, defines the state. The Actor keeps it under the result.
   */
  onNestedRun?: (state: unknown) => void;
  /**
   * Receives the typed error when the Call fails (the result message carries only its code and
   * message), so the agent loop can keep the original stack and stop on an Activity's bug.
   */
  onError?: (error: IdeactError) => void;
  /**
   * Identifies the Call in traces (`gen_ai.tool.call.id`), to its Activity (`ActivityContext.callId`)
   * and in its output writes (`_call`, R-OUT-5); the agent loop passes `<vessel node id>:<index>` (as in
   * `failedCalls`). Absent: a generated `call_…` id.
   */
  callId?: string;
  /** Which execution of the Call this is (1 unless a crash interrupted an earlier one); default 1. */
  attempt?: number;
  /**
   * Journals the Call's start just before it runs and returns its attempt (the agent loop's run
   * journal: 1, or one more than a crashed execution recorded). Wins over `attempt`.
   */
  starting?: (callId: string) => number | Promise<number>;
  /** Model settings of the Call's model requests (the run's); default the executor's. */
  settings?: CallSettings;
  /**
   * A person's decision made before the Call reached the pipeline (the loop's `confirm` hook, a
   * resume's `decisions`): applied whatever the approval policy says.
   */
  decision?: ConfirmDecision;
  /**
   * How a Call that needs approval (its Tool's `needsApproval`, the executor's or this option's
   * predicate) is approved when no `decision` was given: `'caller'` (the default: code that calls
   * is its own approver) or a function that asks a person (MCP elicitation; the loop holds the Call).
   */
  approval?: CallApproval;
  /** The run's own approval predicate (the agent's `needsApproval`), besides the executor's. */
  needsApproval?: NeedsApproval;
  /** True when the Call starts while the model is still writing (its `call-start` event says so). */
  eager?: boolean;
}

/**
 * The outcome of one Call: the messages to append, and the output or the (typed) error; `held` (no
 * messages) when its approval answered `hold`: it did not run and has no result yet. @internal
 */
export interface CallRun {
  messages: Message[];
  output?: unknown;
  error?: IdeactError;
  held?: boolean;
}

/** A Call read against its Tool, ready to run (references resolved, imports selected). @internal */
export interface PreparedCall {
  call: Call;
  tool: ToolSchema;
  info: ToolInfo;
  params: Record<string, unknown>;
  /** The imported messages when the Tool sets `_imports`; undefined when it does not. */
  imports?: Message[];
  instance?: string;
  /** The Activity name, `''` for latent. */
  activity: string;
  /** The Call's id, run and attempt, handed to its Activity. */
  identity: { callId: string; runId?: string; attempt: number };
  /** The Tool as the pipeline read it (cached per executor). */
  entry: ToolEntry;
}
