/**
 * The JSON the `ideact dev` server sends (docs: /work/briefs/dev-api.md): declared here, without importing
 * src/, so the browser bundle and its own tsconfig stay independent of the Node runtime's types.
 */

/** Tokens of one model request, as `request-end` carries them. */
export interface UsageJson {
  inputTokens: number;
  outputTokens: number;
  cachedTokens?: number;
  cacheWriteTokens?: number;
  reasoningTokens?: number;
}

/** A run's totals as `step` and `run-end` carry them. */
export interface RunUsageJson extends UsageJson {
  steps?: number;
  turns?: number;
  elapsedMs?: number;
  byModel?: Record<string, UsageJson>;
  byPath?: Record<string, UsageJson>;
}

/** `{ code, message }` as events carry errors. */
export interface ErrorJson {
  code: string;
  message: string;
}

/** What every run event carries: the emitting run, where in the run tree (`path`), and when. */
export interface EventBaseJson {
  runId: string;
  path: readonly string[];
  time: number;
}

/** A run's events as the server streams them (the runtime's RunEvent union, as JSON). */
export type RunEventJson = EventBaseJson &
  (
    | { type: 'run-start'; task?: string; chain?: string[]; resumed?: boolean }
    | {
        type: 'request-start';
        requestId: string;
        model?: string;
        provider?: string;
        schemaName?: string;
        attempt?: number;
        /** The rendered messages, when the server started the run with `events: { messages: true }`. */
        messages?: RenderedMessage[];
      }
    | {
        type: 'solution-delta';
        requestId: string;
        index?: number;
        delta: string;
        partial?: unknown;
      }
    | { type: 'reasoning-delta'; requestId: string; index?: number; delta: string }
    | {
        type: 'output-delta';
        requestId: string;
        part: 'output' | 'params';
        callIndex?: number;
        tool?: string;
        reasoning?: string;
        value: unknown;
      }
    | {
        type: 'request-end';
        requestId: string;
        model?: string;
        usage?: UsageJson;
        finishReasons?: string[];
        error?: ErrorJson;
      }
    | {
        type: 'call-start';
        callId: string;
        tool: string;
        params?: Record<string, unknown>;
        instance?: string;
        eager?: boolean;
      }
    | { type: 'call-end'; callId: string; tool: string; output?: unknown; error?: ErrorJson }
    | {
        type: 'approval-requested';
        calls: Array<{ callId: string; tool: string; params: Record<string, unknown> }>;
      }
    | { type: 'step'; module: string; next: string; usage?: RunUsageJson }
    | {
        type: 'run-end';
        stopReason: string;
        output?: unknown;
        usage?: RunUsageJson;
        error?: ErrorJson;
      }
  );

/** One message exactly as the provider received it (data messages rendered as in the protocol). */
export interface RenderedMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** A Tool or Idea the playground can run (`GET /api/tools`). */
export interface ToolSummary {
  name: string;
  description?: string;
  kind: 'explicit' | 'latent';
  module?: string;
  imports?: unknown;
  source: 'container' | 'idea';
  file?: string;
  agent: boolean;
}

/** `GET /api/info`. */
export interface ServerInfo {
  version: string;
  provider: { name: string; offline: boolean; model?: string; note?: string };
  ideasDir?: string;
  store: { kind: string; location?: string };
}

/** One row of the run history (`GET /api/runs`). */
export interface RunSummary {
  runId: string;
  tool?: string;
  status: string;
  startedAt: string;
  durationMs?: number;
  tokens?: { input: number; output: number; total: number };
}

/** A Call a stopped run waits on a decision for. */
export interface Interruption {
  callId: string;
  tool: string;
  params: Record<string, unknown>;
  reasoning?: string;
}

/** `GET /api/runs/:id`. */
export interface RunDetail {
  run: RunSummary;
  events: RunEventJson[];
  requests: Record<string, { messages: RenderedMessage[] }>;
  interruptions?: Interruption[];
}

/** One validation issue of `400 INVALID_PARAMS` (`path` is a JSON pointer into the params). */
export interface ParamsIssue {
  path: string;
  message: string;
}

/** One scorer's verdict on one trial (issue 33): a score 0–1, passed or not, and why. */
export interface ScoreJson {
  scorer: string;
  score: number;
  passed: boolean;
  reason: string;
  votes?: Array<{ pass: boolean; score: number; reason: string }>;
}

/** One run of a case. */
export interface TrialJson {
  trial: number;
  runId: string;
  stopReason: string;
  output: unknown;
  error?: ErrorJson;
  scores: ScoreJson[];
  score: number;
  passed: boolean;
  latencyMs: number;
}

/** One case over its trials. */
export interface CaseJson {
  name: string;
  input?: unknown;
  task?: string;
  expected?: unknown;
  trials: TrialJson[];
  score: number;
  spread: { min: number; max: number; stddev: number };
  passRate: number;
  passAtK: number;
  passed: boolean;
}

/** A row of `GET /api/evals`. */
export interface ExperimentSummaryJson {
  id: string;
  name: string;
  target: string;
  provider?: string;
  startedAt: string;
  cases: number;
  passedCases: number;
  passRate: number;
  meanScore: number;
  passed: boolean;
}

/** `GET /api/evals/:id`: an experiment as `ideact eval --json` writes it. */
export interface ExperimentJson {
  id: string;
  name: string;
  file?: string;
  target: string;
  provider?: string;
  model?: string;
  trials: number;
  startedAt: string;
  cases: CaseJson[];
  summary: {
    cases: number;
    passedCases: number;
    trials: number;
    passRate: number;
    passAtK: number;
    meanScore: number;
    durationMs: number;
    scorers: Record<string, { mean: number; passRate: number }>;
  };
  thresholds: Array<{ name: string; required: number; actual: number; passed: boolean }>;
  passed: boolean;
}

/** One case in two experiments. */
export interface CaseDiffJson {
  name: string;
  change: 'regressed' | 'improved' | 'same' | 'added' | 'removed';
  baselineScore?: number;
  score?: number;
  delta?: number;
  baselinePassed?: boolean;
  passed?: boolean;
}

/** `GET /api/evals/:baseline/vs/:id`. */
export interface ComparisonJson {
  baseline: ExperimentJson;
  experiment: ExperimentJson;
  comparison: {
    cases: CaseDiffJson[];
    regressions: number;
    improvements: number;
    meanScoreDelta: number;
  };
}
