import type { Usage } from '../llm/provider';
import type { Call } from '../protocol/call';
import type { JSONSchema } from '../protocol/json-schema';
import type { RequestConfig } from './request-config';
import type { ChatMessage, Message, ReasoningPart } from '../protocol/message';
import type { VesselSolution } from '../protocol/vessel-solution';
import type { ApprovalDecision, ConfirmDecision } from './decisions';

/** The version of the state file format; bumped on incompatible changes so old files fail loudly. */
export const AGENT_STATE_VERSION = 1;

/**
 * The assistant's choice of one turn: the Vessel solution (Calls + optional final output). Kept as its
 * own message type so the Actor reads the Calls without parsing; the Prompter renders it back to the
 * LLM as an assistant message holding the same JSON.
 */
export interface VesselMessage {
  type: 'vessel';
  calls: Call[];
  output: unknown | null;
  /** The model's reasoning behind this choice, when the provider returned it (sent back on later turns). */
  reasoning?: ReasoningPart[];
}

/** What a node wraps: any protocol Message, or the assistant's Vessel choice. */
export type NodeMessage = Message | VesselMessage;

/** Which part of the loop created a node (`input` = the run's initial context and task). */
export type NodeOrigin = 'input' | 'prompter' | 'generator' | 'discriminator' | 'actor' | 'user';

/** Token counts of one or more LLM requests, as recorded on nodes and in the state: the provider's {@link Usage}. */
export type TokenUsage = Usage;

/** Facts about a node; plain JSON so the state file stays inspectable and editable. */
export interface NodeMetadata {
  /** The module (or `input`) that appended the node. */
  module: NodeOrigin;
  /** Tokens spent producing this node (generation, judging, nested agents). */
  usage?: TokenUsage;
  /** For Vessel options: true on the option the Discriminator picked, false on its siblings. */
  chosen?: boolean;
  /** Why the Discriminator picked this option (JudgeDiscriminator). */
  reason?: string;
  /** For result nodes: the Vessel node whose Call produced it, and the Call's index in it. */
  source?: { nodeId: number; callIndex: number };
  /** For result nodes of edited Calls (R-LOOP-4): the Call as the LLM proposed it. */
  originalCall?: Call;
  /** For result nodes of nested agents (R-MOD-5): the nested run's final state, per module call. */
  nested?: AgentState[];
  /**
   * For result nodes of Calls that failed because of an error that is not an ideact error (an
   * Activity's TypeError…): that error's stack, for `result.failedCalls`. Never shown to the LLM.
   */
  errorStack?: string;
  /** Anything a custom module wants to keep (must be JSON). */
  [key: string]: unknown;
}

/** One entry of the state tree (R-LOOP-1): a wrapped message with its place in the tree. */
export interface AgentNode {
  /** Continuous, never reused: node `n` is the `n`-th node ever appended (0-based). */
  id: number;
  /** The node this one follows; `null` for the root. */
  parent: number | null;
  /** Nodes that follow this one; several when the Generator offered options (siblings). */
  children: number[];
  message: NodeMessage;
  metadata: NodeMetadata;
}

/** Why a run stopped (typed; every reason except `output`/`no_calls` can be resumed). */
export type StopReason =
  | 'output'
  | 'no_calls'
  | 'max_turns'
  | 'max_tokens'
  | 'max_time'
  | 'aborted'
  | 'error'
  | 'planned'
  | 'awaiting_approval';

/** Prompter: no args; it reads the path from the root to `state.head`. */
export interface PrompterStep {
  module: 'prompter';
  args: Record<string, never>;
}

/** Generator: the rendered messages the Prompter chose. */
export interface GeneratorStep {
  module: 'generator';
  /** The rendered prompt, and the model settings the Prompter's message handlers chose (R-REQ-2). */
  args: {
    messages: ChatMessage[];
    config?: RequestConfig;
    /** Indexes of `messages` ending a prefix the next turn repeats (`ProviderRequest.cacheBreakpoints`). */
    cacheBreakpoints?: number[];
  };
}

/** Discriminator: the Generator's options, the messages they answer, and what generating cost. */
export interface DiscriminatorStep {
  module: 'discriminator';
  args: {
    options: VesselSolution[];
    messages: ChatMessage[];
    usage: TokenUsage;
    /** The model's reasoning per option (same order as `options`), when the provider returned it. */
    reasoning?: ReasoningPart[][];
    /**
     * Set when the solution failed validation after some of its Calls had started (eager calls):
     * the one option holds those Calls; the Actor records their results, then this error.
     */
    solutionError?: { code: string; message: string };
  };
}

/** Actor: the Vessel node whose Calls to execute. */
export interface ActorStep {
  module: 'actor';
  args: {
    nodeId: number;
    /** Set when a lazily planned Vessel was approved (plan mode `lazy`): its Calls may run. */
    approved?: boolean;
    /** Decisions for the Calls still to run (in order), stored by `agent.executePlan`; used instead of `confirm`. */
    decisions?: ConfirmDecision[];
    /** Decisions by callId for Calls that awaited approval, stored by `agent.resume(runId, { decisions })`. */
    approvals?: Record<string, ApprovalDecision>;
  };
}

/** The run is over; `pending` is the step that was due when a limit, an abort or an error stopped it. */
export interface DoneStep {
  module: 'done';
  args: {
    reason: StopReason;
    output?: unknown;
    /** For resumable stops: the step to run when the run is resumed. */
    pending?: ActiveStep;
    /** For `error`: what failed, as `{ code, message }`. */
    error?: { code: string; message: string };
    /** For `awaiting_approval`: the ids of the Calls that wait for a decision. */
    awaiting?: string[];
  };
}

/** A step that still has work to do. */
export type ActiveStep = PrompterStep | GeneratorStep | DiscriminatorStep | ActorStep;

/** What runs next (R-LOOP-2): modules coordinate only through this typed union. */
export type NextStep = ActiveStep | DoneStep;

/** The module names `nextStep.module` can hold. */
export type StepModuleName = NextStep['module'];

/** Totals of a run (and of resumed runs: they accumulate). */
export interface AgentUsage extends TokenUsage {
  /** Steps run (one module each). */
  steps: number;
  /** LLM turns (Generator runs). */
  turns: number;
  /** Time spent inside steps, summed over all processes that worked on this state. */
  elapsedMs: number;
  /** Tokens per model (as the provider reported it, else as asked for); sums to the totals. */
  byModel?: Record<string, TokenUsage>;
  /**
   * Tokens per run path (the `path` of the requests' events joined with `/`: the run's id, then a
   * module Call's id, then a nested run's id…); sums to the totals.
   */
  byPath?: Record<string, TokenUsage>;
}

/** Limits of a run; stored so that a resumed run keeps (or raises) them. */
export interface AgentLimits {
  maxTurns?: number;
  maxTokens?: number;
  maxTimeMs?: number;
}

/**
 * The whole, serializable state of an agent run (R-LOOP-1): plain JSON, so it can be saved after every
 * step, inspected, edited (e.g. a hand-set `nextStep`) and resumed in another process (R-LOOP-5).
 */
export interface AgentState {
  version: typeof AGENT_STATE_VERSION;
  /** The id of the run working on this state (set when a run opens it; kept across resumes). */
  runId?: string;
  /** The task text the run started with, if any (also the last `input` node). */
  task?: string;
  /** The user's output schema; a non-null Vessel `output` must validate against it. */
  output?: JSONSchema;
  /** Instance ids the LLM may target with `_instance` in its Calls (R-INST-1); absent = none offered. */
  instances?: string[];
  /** All nodes, indexed by id. */
  nodes: AgentNode[];
  /** The node the next Prompter builds on (the end of the active path); `null` before any node. */
  head: number | null;
  nextStep: NextStep;
  usage: AgentUsage;
  limits: AgentLimits;
  /** The modules chain of a nested run (module ids from the root agent), empty at the top level. */
  chain: string[];
}
