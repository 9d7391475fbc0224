import type { Usage } from '../../llm/provider';
import type { JSONSchema } from '../../protocol/json-schema';
import type { ScoreResult } from '../eval-result';
import type { ScorerContext } from '../eval-spec';

/**
 * A scorer ready to score (built from a spec by `buildScorer`): its name, whether it reads the run's
 * events (the harness records them only when some scorer does), and the scoring itself.
 */
export interface Scorer {
  readonly name: string;
  /** True when it reads `events` (toolCalled, custom scorers). */
  readonly needsEvents: boolean;
  score(trial: TrialFacts): ScoreResult | Promise<ScoreResult>;
}

/** What a scorer sees about one trial: the custom scorers' context plus the case's input and expected. */
export interface TrialFacts extends ScorerContext {
  input: unknown;
  expected: unknown;
  /** The target's output schema, for `schema`. */
  outputSchema?: JSONSchema;
  /** Adds tokens the judge spent to the trial's judge usage. */
  addJudgeUsage(usage: Usage): void;
  /** Cancels judge requests when the eval is aborted. */
  signal?: AbortSignal;
}

/**
 * True when the run ended with an output a scorer can read: stop reason `output` (not `no_calls`,
 * whose output is null, nor a limit, nor a failure).
 */
export function hasOutput(trial: TrialFacts): boolean {
  return trial.error === undefined && trial.stopReason === 'output';
}

/** Why there is nothing to score: the stop reason and the error, for a reason a person reads. */
export function noOutputReason(trial: TrialFacts): string {
  const error = trial.error === undefined ? '' : ` — ${trial.error.code}: ${trial.error.message}`;
  return `the run ended without an output (stopped: ${trial.stopReason}${error})`;
}

/** A score from a pass/fail check: 1 or 0, passed when it reaches `threshold` (default 1). */
export function checkResult(
  scorer: string,
  ok: boolean,
  reason: string,
  threshold = 1,
): ScoreResult {
  const score = ok ? 1 : 0;
  return { scorer, score, passed: score >= threshold, reason };
}

/** `value` as short JSON for a reason (cut after `limit` characters). */
export function shortJson(value: unknown, limit = 80): string {
  let text: string;
  try {
    text = value === undefined ? 'undefined' : JSON.stringify(value);
  } catch {
    text = String(value);
  }
  return text.length <= limit ? text : `${text.slice(0, limit - 1)}…`;
}
