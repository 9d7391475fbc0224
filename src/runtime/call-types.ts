import type { IdeactError } from '../errors/ideact-error';
import type { Usage } from '../llm/provider';
import type { Call } from '../protocol/call';
import type { Message } from '../protocol/message';
import type { ToolInfo } from '../protocol/tool-info';
import type { ToolSchema } from '../protocol/tool-schema';
import type { ActivityFunction, ParamsTransformer } from './activity';
import type { ModuleLoader } from './module-loader';
import type { ModuleRunner } from './module-runner';
import type { RunContext } from './run-context';

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
}

/** The outcome of one Call: the messages to append, and the output or the (typed) error. @internal */
export interface CallRun {
  messages: Message[];
  output?: unknown;
  error?: IdeactError;
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
}
