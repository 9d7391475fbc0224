import type { ActivityFailedError } from '../errors/activity-failed.error';
import type { JSONSchema } from '../protocol/json-schema';
import type { Message } from '../protocol/message';
import type { Call } from '../protocol/call';
import type { AgentState, AgentUsage, StopReason } from '../runs/agent-state';
import type { ConfirmCalls, ConfirmDecision } from './confirm';
import type { NestedRunGate } from '../runs/nested-run-gate';
import type { ActivityErrorMode, CallGate, PlanMode } from './agent-runtime';
import type { StepModule } from './step-module';

export type { ActivityErrorMode, PlanMode } from './agent-runtime';
import type { StopCondition } from './stop-conditions';
import type { TraceOptions } from '../runs/tracing';
import type { RunContext } from '../runs/run-context';
import type { RunStore } from '../runs/run-store';
import type { ApprovalDecision } from '../calls/call-approval';
import type { Interruption } from './approvals';

/** Default prompt budget of the BasicPrompter, in estimated tokens (characters / 4). */
export const DEFAULT_PROMPT_TOKEN_BUDGET = 100_000;

/**
 * Default number of Calls of one Vessel that run at the same time: all of them (no cap), as the
 * peers do; set `actorConcurrency` to cap it (e.g. for a rate-limited API).
 */
export const DEFAULT_ACTOR_CONCURRENCY = Number.POSITIVE_INFINITY;

/** The four step modules; any may be replaced (R-LOOP-2). */
export interface StepModules {
  prompter: StepModule;
  generator: StepModule;
  discriminator: StepModule;
  actor: StepModule;
}

/** What `onStep` receives after each step. */
export interface StepEvent {
  /** The module that just ran. */
  module: 'prompter' | 'generator' | 'discriminator' | 'actor';
  /** The state after the step (read it, do not keep it: it keeps changing). */
  state: Readonly<AgentState>;
  /** 0 for the top-level agent, +1 per nested module level. */
  depth: number;
}

/** Agent options that hold for every run of the agent (run options override them per run). */
export interface AgentConfig {
  /** Options the Generator asks for per turn (default 1); use with `JudgeDiscriminator` for n > 1. */
  n?: number;
  /** Human-in-the-loop hook (R-LOOP-4). */
  confirm?: ConfirmCalls;
  /** Prompt budget in estimated tokens; the oldest result outputs are trimmed beyond it. */
  promptTokenBudget?: number;
  /** Calls of one Vessel run at most this many at a time (default: no cap, all at once). */
  actorConcurrency?: number;
  /** Model name passed to the provider. */
  model?: string;
  /** Sampling temperature passed to the provider. */
  temperature?: number;
  /** Extra stop conditions, checked before every step besides the limits. */
  stopWhen?: StopCondition[];
  /** Replacement step modules (the container's, or the defaults, otherwise). */
  modules?: Partial<StepModules>;
  /**
   * Called after every step (also of nested agents, whose `state.chain` is not empty): progress
   * output. An adapter over the run's `step` events (see `agent.stream()`), kept for convenience.
   */
  onStep?: (event: StepEvent) => void;
  /**
   * Start each Call as soon as the model has written it, while it still writes the rest (default
   * true): a Call whose JSON is complete, validates on its own, needs no approval and whose `†`
   * references resolve starts at once. Applies with one option per turn (`n: 1`).
   */
  eagerCalls?: boolean;
  /**
   * `'lazy'`: the model plans and nothing runs; each turn with Calls stops the run with reason
   * `planned` and `result.plan`, to inspect or approve and then `agent.executePlan(result)`.
   * `'eager'` (default): Calls run as they are planned.
   */
  planMode?: PlanMode;
  /**
   * Calls for which it returns true wait for a person's decision (as do Calls of Tools with
   * `needsApproval: true`): the run stops with reason `awaiting_approval` and `result.interruptions`;
   * `agent.resume(runId, { decisions })` continues it. A `confirm` hook decides in-process instead.
   */
  needsApproval?: (call: Call) => boolean;
  /**
   * Where runs are stored (issue 18): each step is journaled, so `agent.resume(runId)` continues a
   * run in any process. Without one, a run lives in memory (resumable by id in this process while
   * unfinished). `FileRunStore` needs no server; `PostgresRunStore` serves many machines.
   */
  store?: RunStore;
  /** Limits of nested agents (R-MOD-5) run as modules; default: 10 turns each. */
  nestedLimits?: { maxTurns?: number; maxTokens?: number; maxTimeMs?: number };
  /**
   * `'feed'` (default): an Activity's bug is fed to the LLM like any failed Call (R-CALL-5), and listed
   * in `result.failedCalls`. `'throw'`: it ends the run (stop reason `error`, `result.error` is an
   * `ActivityFailedError` whose `cause` is the original). Use `'throw'` in tests, `'feed'` in production.
   */
  activityErrors?: ActivityErrorMode;
  /**
   * OpenTelemetry tracing (GenAI conventions): `invoke_agent`, `chat` and `execute_tool` spans go to
   * `tracer` (default: the global provider's `ideact` tracer; a no-op until an SDK is registered).
   * `recordContent: true` adds prompts, solutions, params and outputs (off by default: personal data).
   */
  trace?: TraceOptions;
}

/** What one run starts from and how far it may go (R-LOOP-3). */
export interface RunOptions {
  /** The task, appended as a user message after `context`. */
  task?: string;
  /** Initial messages (system prompt, data, input…). */
  context?: Message[];
  /** Schema of the final output; a non-null Vessel output must validate against it. */
  output?: JSONSchema;
  /**
   * Instance ids (e.g. `['①', '②']`) the LLM may target per Call with `_instance`, so one Request
   * works on many independent states (R-INST-1); kept in the state for resumes.
   */
  instances?: string[];
  /** Stop after this many LLM turns (stop reason `max_turns`). */
  maxTurns?: number;
  /** Stop once input + output tokens reach this many (`max_tokens`). */
  maxTokens?: number;
  /** Stop once this much time was spent in steps (`max_time`). */
  maxTimeMs?: number;
  /** Options per turn (overrides the agent's `n`). */
  n?: number;
  /** Human-in-the-loop hook (overrides the agent's). */
  confirm?: ConfirmCalls;
  /** Aborting it stops the run with the resumable reason `aborted`. */
  signal?: AbortSignal;
  /**
   * Where to keep the run (R-LOOP-5): a store of this one run, in the folder `<stateFile>.run/`
   * beside the file (one journal append per step); the file names the run. Wins over `store`.
   */
  stateFile?: string;
  /** Extra stop conditions for this run. */
  stopWhen?: StopCondition[];
  /** Plan mode of this run (overrides the agent's; see `AgentConfig.planMode`). */
  planMode?: PlanMode;
  /** Where this run is stored (overrides the agent's `store`). */
  store?: RunStore;
  /** Start Calls while the model writes (overrides the agent's `eagerCalls`; workers turn it off). */
  eagerCalls?: boolean;
  /** Runs each Call's body (a worker's per-Call DBOS steps). @internal */
  callGate?: CallGate;
  /** Where nested agents' runs go instead of in-process (a worker's child workflows). @internal */
  nestedRuns?: NestedRunGate;
  /**
   * What the run's events carry besides the defaults: `messages: true` adds each request's rendered
   * messages to its `request-start` event (also of module sub-requests and nested runs), e.g. for a UI.
   */
  events?: { messages?: boolean };
  /**
   * Decisions, by callId, for the Calls a run awaiting approval stopped for (with `state`, or in
   * `agent.resume(runId, { decisions })`): approve, reject with a reason, or edit the params.
   */
  decisions?: Record<string, ApprovalDecision>;
  /**
   * Continue this state (e.g. `result.state` of a stopped run) instead of starting a new one: a
   * stopped run is reopened with the limits given here; a `task` after a finished run becomes a new
   * user message. `context`, `output` and `instances` are ignored (the state has its own).
   */
  state?: AgentState;
  /**
   * `state` was made for this run (e.g. the playground's one-Call run: a Vessel node and the Actor
   * next), not continued from an earlier one: the run is new, and its `run-start` event says
   * `resumed: false`. @internal
   */
  newState?: boolean;
}

/** Options of `agent.executePlan(result)`: the plan's decisions, limits, hooks, where to save. */
export interface ExecutePlanOptions extends Omit<ResumeOptions, 'decisions'> {
  /** One decision per planned Call, in `result.plan` order (default: approve all). */
  decisions?: ConfirmDecision[];
  /**
   * Where to keep the run (R-LOOP-5): a store of this one run, in the folder `<stateFile>.run/`
   * beside the file (one journal append per step); the file names the run. Wins over `store`.
   */
  stateFile?: string;
}

/** Options of `agent.load(state)`: limits, hooks and where to save; the state is taken as it is. */
export interface LoadOptions extends ResumeOptions {
  /**
   * Where to keep the run (R-LOOP-5): a store of this one run, in the folder `<stateFile>.run/`
   * beside the file (one journal append per step); the file names the run. Wins over `store`.
   */
  stateFile?: string;
  /** The module Call context a nested agent runs in (set by the nested agent runner). @internal */
  parent?: RunContext;
}

/** Options of `resume`: the limits may be raised, a new task may continue a finished run. */
export type ResumeOptions = Omit<
  RunOptions,
  'context' | 'output' | 'instances' | 'stateFile' | 'state' | 'newState'
>;

/** A Call of the run whose result is an error: what the LLM was shown, plus the original stack. */
export interface FailedCall {
  /**
   * Where the Call is in the state: `<vessel node id>:<call index>` (e.g. `3:0`); a Call of a nested
   * agent (R-MOD-5) is prefixed by its module Call's id and `/` (e.g. `3:0/2:1`).
   */
  callId: string;
  /** The Tool the Call used (`_tool`). */
  tool: string;
  /** The error code the result carries, e.g. `ACTIVITY_FAILED`, `INVALID_PARAMS`, `CALL_REJECTED`. */
  code: string;
  /** The error message the LLM saw. */
  message: string;
  /** The original error's stack when the cause is not an ideact error (an Activity's TypeError…). */
  stack?: string;
  /** For Calls of nested agents: the module chain (module ids from the root agent). */
  chain?: string[];
}

/** One Call of a plan (plan mode `lazy`): its id and the Call as the model wrote it. */
export interface PlannedCall {
  /** `<vessel node id>:<index>`, as in events and `failedCalls`. */
  callId: string;
  /** The Call as written (`_tool`, params with `†` references unresolved, meta-fields). */
  call: Call;
}

/** What a run returns. */
export interface AgentResult<TOutput = unknown> {
  /** The run's id (`agent.resume(runId)` continues it; its events carry it). */
  runId: string;
  /** The final output (null when the run ended without one). */
  output: TOutput | null;
  /** Why the run stopped. */
  stopReason: StopReason;
  /** The final state (plain JSON). */
  state: AgentState;
  usage: AgentUsage;
  /**
   * Every Call of the state whose result is an error (also of nested agents and of earlier processes
   * that worked on this state), in the order they were recorded; empty when none failed.
   */
  failedCalls: FailedCall[];
  /**
   * Set when the run stopped with reason `planned` (plan mode `lazy`): the Calls the model planned,
   * as written (references unresolved), in order. Approve and run them with `agent.executePlan(result)`.
   */
  plan?: PlannedCall[];
  /**
   * Set when the run stopped with reason `awaiting_approval`: the Calls waiting for a decision.
   * Decide with `agent.resume(result.runId, { decisions: { [callId]: { approve: true } } })`.
   */
  interruptions?: Interruption[];
  /**
   * Set when `activityErrors: 'throw'` ended the run (stop reason `error`): the ActivityFailedError
   * whose `cause` is the Activity's original error. The state is saved; resuming feeds it to the LLM.
   */
  error?: ActivityFailedError;
}
