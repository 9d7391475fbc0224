import type { Usage } from '../llm/provider';
import type { CallError } from '../protocol/call';
import type { ChatMessage } from '../protocol/message';

/**
 * The events of a run (`agent.stream()`, `run.subscribe()`): plain JSON, so they can be logged,
 * persisted and sent over the network as they are. Nested runs and module sub-requests report
 * through their parent run, so one stream shows the whole tree; `path` says where each event is from.
 */

/** What every event carries: who emitted it, where in the run tree, and when. */
export interface RunEventBase {
  /** The run that emitted the event (a nested agent's own run id for its events). */
  runId: string;
  /**
   * Ids from the root run down to the emitter: `[rootRunId]` for the root run, then a module Call's
   * id (`<vessel node id>:<index>`) for its sub-request, then a nested agent's run id, and so on.
   */
  path: readonly string[];
  /** Milliseconds since the Unix epoch, monotonic (never earlier than the event before it). */
  time: number;
}

/** A run started (also a nested agent's run, whose `chain` names its module). */
export interface RunStartEvent extends RunEventBase {
  type: 'run-start';
  /** The task the run started with, if any. */
  task?: string;
  /** Module ids from the root agent to this nested run (empty at the top level). */
  chain: string[];
  /** True when the run continues a stored or stopped state instead of starting a new one. */
  resumed: boolean;
}

/** A model request was sent (the Generator's, a Discriminator's, or a module Call's sub-request). */
export interface RequestStartEvent extends RunEventBase {
  type: 'request-start';
  /** Identifies the request's `solution-delta` and `request-end` events within the run. */
  requestId: string;
  /** The model asked for, when the request names one (else the provider's default). */
  model?: string;
  /** The provider's name (`openai:gpt-4o-mini`, `offline`, `scripted`…). */
  provider?: string;
  /** The schema's name: `vessel` for the agent loop's turns, the module's name for sub-requests. */
  schemaName?: string;
  /** 0 for the first attempt, then 1, 2… for each repair (R-REQ-3). */
  attempt: number;
  /**
   * The messages exactly as the provider received them; only when the run was started with
   * `events: { messages: true }` (off by default: prompts are large and may hold personal data).
   */
  messages?: ChatMessage[];
}

/** Text of the solution arrived (streaming); `partial` is the JSON parsed from the text so far. */
export interface SolutionDeltaEvent extends RunEventBase {
  type: 'solution-delta';
  requestId: string;
  /** Which of the `n` options the text belongs to (0 unless `n > 1`). */
  index: number;
  /** The raw text delta. */
  delta: string;
  /**
   * The option's text so far parsed leniently (unfinished strings, arrays and objects closed);
   * for every delta up to 2 KB of text, then once the text grew by a tenth and whenever a delta closes
   * an object or array (else the previous value); undefined while nothing parses.
   */
  partial?: unknown;
}

/**
 * The Vessel's `output`, or one Call's params, as the model writes them (issue 32): each event carries
 * the whole partial value so far, parsed from the text so far with unfinished strings, arrays and
 * objects closed and numbers, booleans and null left out until complete, so each value is a prefix of
 * the next (strings grow, keys and items are added) and the last one of a request equals what it wrote.
 * Only for observed runs (someone reads deltas), like `solution-delta`.
 */
export interface OutputDeltaEvent extends RunEventBase {
  type: 'output-delta';
  /** The Generator's request the value is written in. */
  requestId: string;
  /** `output`: the Vessel's output; `params`: the params of the Call at `callIndex` of the Vessel. */
  part: 'output' | 'params';
  /** For `params`: the Call's index in the Vessel (its id, once it runs, is `<vessel node id>:<index>`). */
  callIndex?: number;
  /** For `params`: the Call's Tool, once the model wrote `_tool`. */
  tool?: string;
  /** For `params`: why the model makes the Call (`_reasoningForCall`) so far, when it writes one. */
  reasoning?: string;
  /** The partial value so far (for `params`: the Call without its `_` meta-fields). */
  value: unknown;
}

/**
 * The model's reasoning (thinking) arrived, for providers that return it (Anthropic extended thinking,
 * Gemini thoughts, reasoning models through the AI SDK): shown as it streams, never part of the
 * solution. Emitted like `solution-delta` (to observed runs), once per option for a whole reply.
 */
export interface ReasoningDeltaEvent extends RunEventBase {
  type: 'reasoning-delta';
  requestId: string;
  /** Which of the `n` options the reasoning belongs to (0 unless `n > 1`). */
  index: number;
  /** The reasoning text delta. */
  delta: string;
}

/** A model request finished: its own usage, and why each option ended. */
export interface RequestEndEvent extends RunEventBase {
  type: 'request-end';
  requestId: string;
  /** The model that answered (as the provider reports it), else the one asked for, else the provider's name. */
  model: string;
  /** Tokens of this request alone. */
  usage: Usage;
  /** Why each option ended (`stop`, `length`…), when the provider reports it. */
  finishReasons?: string[];
  /**
   * Set when the provider call failed (provider error, abort). A reply that fails validation is not
   * an error here: the next `request-start` (attempt + 1) is its repair.
   */
  error?: CallError;
}

/** A Call started executing (`eager: true` when it started while the model was still writing). */
export interface CallStartEvent extends RunEventBase {
  type: 'call-start';
  /** `<vessel node id>:<call index>`, as in `result.failedCalls` and the `execute_tool` span. */
  callId: string;
  /** The Tool the Call uses (`_tool`). */
  tool: string;
  /** The Call's params (references unresolved, as the model wrote them). */
  params: Record<string, unknown>;
  /** The instance the Call targets (R-INST-1), if any. */
  instance?: string;
  /** True when the Call started before the model finished the solution (eager calls). */
  eager: boolean;
}

/** A Call finished: its output, or the error its result carries. */
export interface CallEndEvent extends RunEventBase {
  type: 'call-end';
  callId: string;
  tool: string;
  /** The Call's output (absent when it failed). */
  output?: unknown;
  /** The error the Call's result carries (`{ code, message }`), when it failed or was rejected. */
  error?: CallError;
}

/** The run asks the `confirm` hook to approve these Calls before running them (R-LOOP-4). */
export interface ApprovalRequestedEvent extends RunEventBase {
  type: 'approval-requested';
  calls: Array<{ callId: string; tool: string; params: Record<string, unknown> }>;
}

/** A step module finished; `next` is the module that runs next (`done` when the run is over). */
export interface StepEndEvent extends RunEventBase {
  type: 'step';
  module: 'prompter' | 'generator' | 'discriminator' | 'actor';
  next: 'prompter' | 'generator' | 'discriminator' | 'actor' | 'done';
  /** The run's totals after the step (tokens, steps, turns, time). */
  usage: RunEventUsage;
}

/** The run ended (also a nested agent's run): why, its output and its total usage. */
export interface RunEndEvent extends RunEventBase {
  type: 'run-end';
  stopReason: string;
  output: unknown;
  usage: RunEventUsage;
  /** Set when the run ended on an error (stop reason `error`), or the step threw. */
  error?: CallError;
}

/** Usage as events carry it: token totals plus the run's steps, turns and time. */
export interface RunEventUsage extends Usage {
  steps: number;
  turns: number;
  elapsedMs: number;
  /** Tokens per model (the model the provider reported, else the one asked for). */
  byModel?: Record<string, Usage>;
  /** Tokens per run path (`path.join('/')` of the requests' events). */
  byPath?: Record<string, Usage>;
}

/** Every event a run emits, discriminated on `type`. */
export type RunEvent =
  | RunStartEvent
  | RequestStartEvent
  | SolutionDeltaEvent
  | OutputDeltaEvent
  | ReasoningDeltaEvent
  | RequestEndEvent
  | CallStartEvent
  | CallEndEvent
  | ApprovalRequestedEvent
  | StepEndEvent
  | RunEndEvent;

/** The `type` values of {@link RunEvent}. */
export type RunEventType = RunEvent['type'];

/** An event before the run context stamps it with `runId`, `path` and `time`. */
export type RunEventPayload = RunEvent extends infer Event
  ? Event extends RunEvent
    ? Omit<Event, keyof RunEventBase>
    : never
  : never;

/** Receives every event of a run (and of its nested runs), synchronously, in order. */
export type RunEventListener = (event: RunEvent) => void;
