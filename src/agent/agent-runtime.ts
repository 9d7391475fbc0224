import type { CallOptions } from '../calls/call-types';
import type { Call } from '../protocol/call';
import type { Message } from '../protocol/message';
import type { ToolSchema } from '../protocol/tool-schema';
import type { Provider } from '../llm/provider';
import type { MessageHandler } from '../requests/message-handler';
import type { AgentState } from '../runs/agent-state';
import type { ConfirmCalls } from './confirm';
import type { RunContext } from '../runs/run-context';
import type { StartedCalls } from './started-calls';

/**
 * What an error thrown by an Activity that is not an ideact error (a TypeError, ReferenceError,
 * RangeError…: a bug in your code) does. `'feed'` (default, R-CALL-5): it becomes the Call's result
 * error and the LLM sees it. `'throw'`: the run ends with stop reason `error` and `result.error`.
 */
export type ActivityErrorMode = 'feed' | 'throw';

/** The Tool list a Generator offers (the container's `Toolkit` satisfies it). */
export interface ToolSource {
  list(): Promise<ToolSchema[]>;
  /**
   * Optional: the Tools without waiting, when the source knows nothing changed since its last
   * `list()` (the container's Toolkit does); undefined to make the caller `await list()`.
   */
  current?(): readonly ToolSchema[] | undefined;
}

/** What the Actor runs Calls with (the container's `Executor` satisfies it). */
export interface CallRunner {
  /** Registered Activity names, so the Vessel hides `_output` of Tools explicit by name (R-TOOL-2). */
  readonly activityNames?: ReadonlySet<string>;
  call(call: Call, context: readonly Message[], options?: CallOptions): Promise<Message[]>;
}

/** Per-run settings the step modules read; everything here is a run option, not state. */
export interface AgentSettings {
  /** How many options the Generator asks for (default 1). */
  n: number;
  /** Human-in-the-loop hook the Actor consults before running Calls (R-LOOP-4). */
  confirm?: ConfirmCalls;
  signal?: AbortSignal;
  /** Message handlers for the request pipeline (R-REQ-2); the provider layer's defaults when absent. */
  handlers?: MessageHandler[];
  /** Repairs per request (R-REQ-3). */
  maxRepairs?: number;
  model?: string;
  temperature?: number;
  /** Token budget of the prompt (estimated as characters / 4); the oldest results are trimmed first. */
  promptTokenBudget: number;
  /** How many Calls of one Vessel run at the same time. */
  concurrency: number;
  /** What an Activity's own bug (a non-ideact error) does: fed to the LLM (default), or ends the run. */
  activityErrors?: ActivityErrorMode;
  /** Start each Call as soon as the model has written it (default true; see `AgentConfig.eagerCalls`). */
  eagerCalls?: boolean;
  /** `lazy`: a turn's Calls wait for approval of the whole plan (stop reason `planned`); default `eager`. */
  planMode?: PlanMode;
  /** Calls this predicate approves of wait for a person (besides Tools with `needsApproval: true`). */
  needsApproval?: (call: Call) => boolean;
}

/**
 * How a turn's solution is used (R-FLOW-5): `eager` (default) runs its Calls as they are planned;
 * `lazy` stops the run with reason `planned` and `result.plan`, to run after approval.
 */
export type PlanMode = 'eager' | 'lazy';

/**
 * Runs one Call of a Vessel (`body`: its execution and the recording of its result); a worker makes
 * each such body a DBOS step of its own, reserved in index order when the Actor starts. @internal
 */
export type CallGate = (callId: string, body: () => Promise<void>) => Promise<void>;

/**
 * The agent as a step module sees it: the mutable state plus the services of its container. Modules
 * change `state` (append nodes, set `nextStep`) and may call `checkpoint()` to persist mid-step (the
 * Actor does after every completed Call, R-LOOP-5).
 */
export interface AgentRuntime {
  readonly state: AgentState;
  readonly provider: Provider;
  readonly toolkit: ToolSource;
  readonly executor: CallRunner;
  readonly settings: AgentSettings;
  /**
   * The run's context: pass it to `runRequest({ run })` and `executor.call(..., { run })` so model
   * requests and Calls report their events and usage to the run.
   */
  readonly run?: RunContext;
  /** Calls the Generator started while the model was writing; the Actor takes their outcomes. @internal */
  readonly startedCalls?: StartedCalls;
  /**
   * Numbers a Call's start (1, 2… across resumes of the run) and journals it before it runs; the
   * Activity gets the attempt with its `callId` as an idempotency key. Absent outside a Run.
   */
  callStarting?(callId: string): number | Promise<number>;
  /** Where the Actor runs each Call's body (a worker's per-Call DBOS steps); inline when absent. @internal */
  readonly callGate?: CallGate;
  /** Journals the state now when the run has a store (or a `stateFile`, a store of one run); a no-op otherwise. */
  checkpoint(): Promise<void>;
  /**
   * The run goes on while its commits are written (issue 31: run to its end, nobody reading its
   * steps): a mid-step `checkpoint()` need not be awaited, since a Call's start and the run's end
   * wait for every commit before them. @internal
   */
  readonly commitsInBackground?: boolean;
}
