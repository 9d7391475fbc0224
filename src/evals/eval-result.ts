import type { Usage } from '../llm/provider';
import type { CallError } from '../protocol/call';
import type { TrialUsage } from './eval-spec';

/**
 * What an eval produced (the JSON results file of `ideact eval --json`, the experiments the
 * playground lists): plain JSON with a version, so results of different runs compare.
 */

/** The version of the results format; a later incompatible layout bumps it. */
export const EXPERIMENT_RESULT_VERSION = 1;

/** One scorer's verdict on one trial: a score 0–1, whether it passed, and why, for a person. */
export interface ScoreResult {
  /** The scorer's name (`equals(title)`, `toolCalled(melody)`, `judge`, a custom name). */
  scorer: string;
  score: number;
  passed: boolean;
  reason: string;
  /** The judge's verdicts, one per vote. */
  votes?: JudgeVote[];
}

/** One verdict of a judge. */
export interface JudgeVote {
  pass: boolean;
  score: number;
  reason: string;
}

/** One run of a case. */
export interface TrialResult {
  /** 1-based. */
  trial: number;
  /** The run's id in the run store (its tree in the playground: `#/runs/<runId>`). */
  runId: string;
  stopReason: string;
  /** The run's output (null when it ended without one). */
  output: unknown;
  /** Set when the run ended on an error. */
  error?: CallError;
  scores: ScoreResult[];
  /** Mean of the scores. */
  score: number;
  /** Every score passed and the run did not fail. */
  passed: boolean;
  usage: TrialUsage;
  /** Tokens the judge spent on this trial. */
  judgeUsage?: Usage;
  latencyMs: number;
}

/** Low, high and standard deviation of a case's trial scores. */
export interface Spread {
  min: number;
  max: number;
  stddev: number;
}

/** One case over its trials. */
export interface CaseResult {
  name: string;
  input?: unknown;
  task?: string;
  expected?: unknown;
  trials: TrialResult[];
  /** Mean of the trials' scores. */
  score: number;
  spread: Spread;
  /** Share of trials that passed (pass@1). */
  passRate: number;
  /** pass@k with k = the number of trials: at least one trial passed (1) or none (0). */
  passAtK: number;
  /** Every trial passed. */
  passed: boolean;
  /** Mean score and pass rate per scorer over the trials. */
  scorers: Record<string, ScorerSummary>;
}

/** A scorer's mean score and pass rate over trials (or over all cases in the summary). */
export interface ScorerSummary {
  mean: number;
  passRate: number;
}

/** The whole experiment in numbers. */
export interface EvalSummary {
  cases: number;
  /** Cases whose every trial passed. */
  passedCases: number;
  trials: number;
  passedTrials: number;
  /** passedTrials / trials (pass@1). */
  passRate: number;
  /** Mean of the cases' pass@k (k = trials). */
  passAtK: number;
  /** Mean of the cases' scores. */
  meanScore: number;
  scorers: Record<string, ScorerSummary>;
  /** Tokens and turns of every case run. */
  usage: TrialUsage;
  /** Tokens the judges spent. */
  judgeUsage: Usage;
  /** Trials whose run failed with an error. */
  errors: number;
  durationMs: number;
}

/** One threshold checked against the summary. */
export interface ThresholdResult {
  /** `passRate`, `meanScore` or `scorer:<name>`. */
  name: string;
  required: number;
  actual: number;
  passed: boolean;
}

/** How a case moved against the baseline. */
export type CaseChange = 'regressed' | 'improved' | 'same' | 'added' | 'removed';

/** One case in two experiments. */
export interface CaseDiff {
  name: string;
  change: CaseChange;
  baselineScore?: number;
  score?: number;
  /** score − baselineScore (absent for added or removed cases). */
  delta?: number;
  baselinePassed?: boolean;
  passed?: boolean;
}

/** Two experiments compared case by case (`--baseline`, the playground's side-by-side view). */
export interface ExperimentComparison {
  baselineId: string;
  experimentId: string;
  tolerance: number;
  cases: CaseDiff[];
  regressions: number;
  improvements: number;
  /** meanScore − the baseline's meanScore. */
  meanScoreDelta: number;
}

/** An experiment: one run of an eval, as saved and as `--json` writes it. */
export interface ExperimentResult {
  version: typeof EXPERIMENT_RESULT_VERSION;
  /** Unique: `<name>-<UTC time>-<random>`; the runs of its cases carry it (`RunHeader.experiment`). */
  id: string;
  name: string;
  /** The eval file, when it came from one. */
  file?: string;
  /** What ran: `idea <path>`, `config <path>` or `agent`. */
  target: string;
  /** The provider's name (`offline`, `scripted`, `openai:gpt-4o-mini`…). */
  provider?: string;
  model?: string;
  trials: number;
  concurrency: number;
  startedAt: string;
  finishedAt: string;
  cases: CaseResult[];
  summary: EvalSummary;
  thresholds: ThresholdResult[];
  /** Set when a baseline was given. */
  baseline?: ExperimentComparison;
  /** Every threshold held and nothing regressed against the baseline (exit code 0). */
  passed: boolean;
}

/** A row of the experiments list. */
export interface ExperimentSummary {
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
