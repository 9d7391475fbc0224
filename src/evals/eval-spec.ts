import type { Agent } from '../agent/agent';
import type { Provider } from '../llm/provider';
import type { CallError } from '../protocol/call';
import type { JSONSchema } from '../protocol/json-schema';
import type { Message } from '../protocol/message';
import type { RunEvent } from '../runs/run-event';

/**
 * What an eval is (issue 33, docs/evals.md): a target (an Idea file, a config module's agent, or an
 * Agent in code), cases (inline or a `.jsonl` file), scorers and thresholds. An eval file
 * (`*.eval.json`, or `.mjs` / `.ts` exporting the same shape) holds one; `runEval(spec)` runs one.
 */
export interface EvalSpec {
  /** The experiment's name (its results and runs are labelled with it); default: the file's base name. */
  name?: string;
  /** What runs each case. */
  target: EvalTarget;
  /** The cases, or the path of a `.jsonl` file with one case per line (relative to the eval file). */
  cases: EvalCase[] | string;
  /** Scorers applied to every case (a case may add its own). */
  scorers?: ScorerSpec[];
  /** What the summary must reach; without it every case must pass (`passRate: 1`). */
  thresholds?: EvalThresholds;
  /**
   * The model the target runs on: a Provider (in code), or `"offline"` / `"openai"`; default: OpenAI
   * when OPENAI_API_KEY / OPENAI_BASE_URL is set, else the offline provider (said plainly).
   */
  provider?: Provider | 'offline' | 'openai';
  /** The model name the target's requests ask for. */
  model?: string;
  /** The judge's own provider and model (default: the target's). */
  judge?: JudgeSettings;
  /** Turn limit of every case's run (default 10). */
  maxTurns?: number;
  /** How often each case runs (default 1): pass@k, mean and spread per case. */
  trials?: number;
  /** How many case runs at once (default 4). */
  concurrency?: number;
}

/** What runs the cases. */
export type EvalTarget = IdeaTarget | ConfigTarget | AgentTarget;

/** An Idea file run as an agent, as `ideact run` runs it; a case's `input` replaces its input. */
export interface IdeaTarget {
  /** The Idea file (relative to the eval file). */
  idea: string;
  /** Where its module paths resolve (default: the Idea's folder). */
  moduleRoot?: string;
}

/** The agent of a config module (a container or a `createContainer` configuration, as `ideact dev --config`). */
export interface ConfigTarget {
  /** The config module (relative to the eval file; `.ts` loads with the project's tsx). */
  config: string;
  /** Messages every case's run starts with (before the case's input). */
  context?: Message[];
  /** The schema of the final output. */
  output?: JSONSchema;
}

/** An Agent made in code (`runEval` only). */
export interface AgentTarget {
  agent: Agent;
  /** Messages every case's run starts with (before the case's input). */
  context?: Message[];
  /** The schema of the final output. */
  output?: JSONSchema;
}

/** One case: what the target gets, what is expected, and scorers of its own. */
export interface EvalCase {
  /** Unique within the eval: results, baselines and JUnit name cases by it. */
  name: string;
  /** The input (an Idea's input message; an input message for an agent). */
  input?: unknown;
  /** A task for the run (a user message). */
  task?: string;
  /** The expected output; `equals` / `contains` compare with it unless given a `value`. */
  expected?: unknown;
  /** Scorers for this case only (after the eval's). */
  scorers?: ScorerSpec[];
  /** Anything to keep with the case (e.g. `fromRun`); not scored. */
  metadata?: Record<string, unknown>;
}

/** The judge's own provider and model. */
export interface JudgeSettings {
  /** A Provider (in code), or `"offline"` / `"openai"`. */
  provider?: Provider | 'offline' | 'openai';
  model?: string;
}

/** What the summary must reach for the eval to pass (exit code 0). */
export interface EvalThresholds {
  /** Share of all trials that passed (pass@1), 0–1. */
  passRate?: number;
  /** Mean of the cases' scores, 0–1. */
  meanScore?: number;
  /** Mean score per scorer name, 0–1 (e.g. `{ "judge": 0.8 }`). */
  scorers?: Record<string, number>;
  /**
   * How far a case's score may drop below the baseline's (`--baseline`) before it counts as a
   * regression (default 0: any drop).
   */
  tolerance?: number;
}

/** A scorer: one of the built-in ones (plain JSON) or a custom function (in code). */
export type ScorerSpec = BuiltInScorer | CustomScorer;

/** The built-in scorers, discriminated on `type`. */
export type BuiltInScorer =
  | SchemaScorer
  | EqualsScorer
  | ContainsScorer
  | MatchesScorer
  | ToolCalledScorer
  | MaxTurnsScorer
  | MaxCostScorer
  | MaxLatencyScorer
  | JudgeScorer;

/** What every built-in scorer may set. */
interface ScorerBase {
  /** The name results and thresholds use (default: from the type, e.g. `equals(title)`). */
  name?: string;
  /** The score at which it passes (default 1; the judge passes by majority vote unless set). */
  threshold?: number;
}

/** The output validates against `schema` (default: the target's output schema). */
export interface SchemaScorer extends ScorerBase {
  type: 'schema';
  schema?: JSONSchema;
}

/** The value at `path` of the output deeply equals `value` (default: the expected value at `path`). */
export interface EqualsScorer extends ScorerBase {
  type: 'equals';
  /** A path into the output: `title`, `tracks[0].kind`, `$.notes` (default: the whole output). */
  path?: string;
  value?: unknown;
}

/**
 * The value at `path` contains `value`: a substring of a string, an element of an array (objects
 * match partially), or a partial object of an object (default: the expected value at `path`).
 */
export interface ContainsScorer extends ScorerBase {
  type: 'contains';
  path?: string;
  value?: unknown;
}

/** The string at `path` matches the regular expression `pattern`. */
export interface MatchesScorer extends ScorerBase {
  type: 'matches';
  path?: string;
  pattern: string;
  /** RegExp flags, e.g. `i`. */
  flags?: string;
}

/**
 * A Tool was called during the run — by the agent or inside a nested module (its events carry a
 * `path`) — optionally with params that match `params` partially, between `min` and `max` times.
 */
export interface ToolCalledScorer extends ScorerBase {
  type: 'toolCalled';
  tool: string;
  /** A partial object the Call's params must match (as the model wrote them). */
  params?: Record<string, unknown>;
  /** At least this many matching Calls (default 1). */
  min?: number;
  /** At most this many matching Calls (e.g. 0: the Tool was NOT called). */
  max?: number;
}

/** The run took at most `max` turns. */
export interface MaxTurnsScorer extends ScorerBase {
  type: 'maxTurns';
  max: number;
}

/** The run (nested runs and module requests included) cost at most `maxTokens` and/or `maxUsd`. */
export interface MaxCostScorer extends ScorerBase {
  type: 'maxCost';
  /** Input plus output tokens. */
  maxTokens?: number;
  /** Dollars, priced with `pricing`. */
  maxUsd?: number;
  pricing?: TokenPricing;
}

/** Dollars per million tokens. */
export interface TokenPricing {
  inputPerMillion: number;
  outputPerMillion: number;
  /** Cached input tokens (default: the input price). */
  cachedInputPerMillion?: number;
}

/** The run took at most `maxMs` milliseconds, start to end. */
export interface MaxLatencyScorer extends ScorerBase {
  type: 'maxLatency';
  maxMs: number;
}

/**
 * An LLM judge grades the output against `rubric`: `votes` independent verdicts (one request for n
 * options, as the JudgeDiscriminator asks), each `{ reason, pass, score }`; the score is their mean,
 * it passes when most votes pass (or, with `threshold`, when the mean reaches it).
 */
export interface JudgeScorer extends ScorerBase {
  type: 'judge';
  rubric: string;
  /** How many verdicts (default 1). */
  votes?: number;
  /** The judge's model (default: the eval's `judge.model`, else the provider's default). */
  model?: string;
  /** The judge's provider (in code; default: the eval's `judge.provider`, else the target's). */
  provider?: Provider | 'offline' | 'openai';
  /** Show the judge the case's expected output (default true when the case has one). */
  includeExpected?: boolean;
}

/** A scorer written as a function (in code): it gets the case and what the run produced. */
export interface CustomScorer {
  name: string;
  score: (context: ScorerContext) => ScoreValue | Promise<ScoreValue>;
  /** The score at which it passes (default 1). */
  threshold?: number;
}

/** What a custom scorer returns: a score 0–1 (or a boolean) and why; a bare number gets a stock reason. */
export type ScoreValue =
  number | boolean | { score: number | boolean; reason: string; passed?: boolean };

/** What a custom scorer sees. */
export interface ScorerContext {
  case: EvalCase;
  /** The run's output (null when it ended without one). */
  output: unknown;
  /** Every event of the run (nested runs' and module requests' too, by `path`). */
  events: readonly RunEvent[];
  usage: TrialUsage;
  /** Wall time of the run. */
  latencyMs: number;
  stopReason: string;
  /** Set when the run ended on an error. */
  error?: CallError;
  runId: string;
  /** 1-based trial number. */
  trial: number;
}

/** Tokens and turns of one case run (nested runs and module requests included). */
export interface TrialUsage {
  inputTokens: number;
  outputTokens: number;
  cachedTokens: number;
  turns: number;
  steps: number;
}
