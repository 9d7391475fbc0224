import { addUsage, emptyUsage } from '../llm/usage';
import type {
  CaseResult,
  EvalSummary,
  ScorerSummary,
  Spread,
  ThresholdResult,
  TrialResult,
} from './eval-result';
import type { EvalCase, EvalThresholds, TrialUsage } from './eval-spec';

/**
 * The numbers of an experiment (issue 33 item 1): per case over its trials (mean, spread, pass@1,
 * pass@k), over all cases (the summary), and the thresholds checked against them.
 */

/** The mean of `values` (0 for none). */
export function mean(values: readonly number[]): number {
  return values.length === 0 ? 0 : values.reduce((sum, value) => sum + value, 0) / values.length;
}

/** Low, high and population standard deviation of `values`. */
export function spreadOf(values: readonly number[]): Spread {
  if (values.length === 0) return { min: 0, max: 0, stddev: 0 };
  const average = mean(values);
  const variance = mean(values.map((value) => (value - average) ** 2));
  return { min: Math.min(...values), max: Math.max(...values), stddev: Math.sqrt(variance) };
}

/**
 * pass@k from n trials with c passed (the unbiased estimator 1 − C(n−c, k) / C(n, k)); with k = n it is
 * 1 when any trial passed, else 0.
 */
export function passAtK(trials: number, passed: number, k: number): number {
  if (trials - passed < k) return 1;
  let failAll = 1;
  for (let index = trials - passed + 1; index <= trials; index += 1) failAll *= 1 - k / index;
  return 1 - failAll;
}

/** A case's result from its trials (in trial order). */
export function caseResultOf(evalCase: EvalCase, trials: TrialResult[]): CaseResult {
  if (trials.length === 1) return oneTrialCase(evalCase, trials[0] as TrialResult, trials);
  const scores: number[] = [];
  let passed = 0;
  const byScorer = new ScorerTally();
  for (const trial of trials) {
    scores.push(trial.score);
    if (trial.passed) passed += 1;
    for (const score of trial.scores) byScorer.add(score.scorer, score.score, score.passed);
  }
  // Keys in the results file's order: name, input, task, expected, trials, then the numbers.
  const result = { name: evalCase.name } as CaseResult;
  if (evalCase.input !== undefined) result.input = evalCase.input;
  if (evalCase.task !== undefined) result.task = evalCase.task;
  if (evalCase.expected !== undefined) result.expected = evalCase.expected;
  result.trials = trials;
  result.score = mean(scores);
  result.spread = spreadOf(scores);
  result.passRate = trials.length === 0 ? 0 : passed / trials.length;
  result.passAtK = passAtK(trials.length, passed, trials.length);
  result.passed = trials.length > 0 && passed === trials.length;
  result.scorers = byScorer.summaries();
  return result;
}

/** The numbers of a case run once (the usual eval): each is the trial's own. */
function oneTrialCase(evalCase: EvalCase, trial: TrialResult, trials: TrialResult[]): CaseResult {
  const result = { name: evalCase.name } as CaseResult;
  if (evalCase.input !== undefined) result.input = evalCase.input;
  if (evalCase.task !== undefined) result.task = evalCase.task;
  if (evalCase.expected !== undefined) result.expected = evalCase.expected;
  result.trials = trials;
  result.score = trial.score;
  result.spread = { min: trial.score, max: trial.score, stddev: 0 };
  result.passRate = trial.passed ? 1 : 0;
  result.passAtK = trial.passed ? 1 : 0;
  result.passed = trial.passed;
  // A case's scorers have distinct names (checked when the eval starts).
  const scorers: Record<string, ScorerSummary> = {};
  for (const score of trial.scores) {
    scorers[score.scorer] = { mean: score.score, passRate: score.passed ? 1 : 0 };
  }
  result.scorers = scorers;
  return result;
}

/** Mean score and pass rate per scorer name, in the order the scorers first appear. */
export function scorerSummaries(
  scores: ReadonlyArray<{ scorer: string; score: number; passed: boolean }>,
): Record<string, ScorerSummary> {
  const tally = new ScorerTally();
  for (const score of scores) tally.add(score.scorer, score.score, score.passed);
  return tally.summaries();
}

/** Running totals per scorer name (first-seen order), for {@link scorerSummaries}. */
class ScorerTally {
  private readonly names: string[] = [];
  private readonly entries = new Map<string, { total: number; passed: number; count: number }>();

  add(name: string, score: number, passed: boolean): void {
    let entry = this.entries.get(name);
    if (entry === undefined) {
      entry = { total: 0, passed: 0, count: 0 };
      this.entries.set(name, entry);
      this.names.push(name);
    }
    entry.total += score;
    if (passed) entry.passed += 1;
    entry.count += 1;
  }

  summaries(): Record<string, ScorerSummary> {
    const summaries: Record<string, ScorerSummary> = {};
    for (const name of this.names) {
      const entry = this.entries.get(name) as { total: number; passed: number; count: number };
      summaries[name] = { mean: entry.total / entry.count, passRate: entry.passed / entry.count };
    }
    return summaries;
  }
}

/** The summary of all cases. */
export function summaryOf(cases: readonly CaseResult[], durationMs: number): EvalSummary {
  const usage: TrialUsage = {
    inputTokens: 0,
    outputTokens: 0,
    cachedTokens: 0,
    turns: 0,
    steps: 0,
  };
  let judgeUsage = emptyUsage();
  let trials = 0;
  let passedTrials = 0;
  let errors = 0;
  let passedCases = 0;
  let passAtKSum = 0;
  let scoreSum = 0;
  // Per scorer: the mean of its per-case means, and the share of cases it passed in every trial.
  const byScorer = new ScorerTally();
  for (const item of cases) {
    if (item.passed) passedCases += 1;
    passAtKSum += item.passAtK;
    scoreSum += item.score;
    for (const scorer in item.scorers) {
      const summary = item.scorers[scorer] as ScorerSummary;
      byScorer.add(scorer, summary.mean, summary.passRate === 1);
    }
    for (const trial of item.trials) {
      trials += 1;
      if (trial.passed) passedTrials += 1;
      if (trial.error !== undefined) errors += 1;
      usage.inputTokens += trial.usage.inputTokens;
      usage.outputTokens += trial.usage.outputTokens;
      usage.cachedTokens += trial.usage.cachedTokens;
      usage.turns += trial.usage.turns;
      usage.steps += trial.usage.steps;
      if (trial.judgeUsage !== undefined) judgeUsage = addUsage(judgeUsage, trial.judgeUsage);
    }
  }
  return {
    cases: cases.length,
    passedCases,
    trials,
    passedTrials,
    passRate: trials === 0 ? 0 : passedTrials / trials,
    passAtK: cases.length === 0 ? 0 : passAtKSum / cases.length,
    meanScore: cases.length === 0 ? 0 : scoreSum / cases.length,
    scorers: byScorer.summaries(),
    usage,
    judgeUsage,
    errors,
    durationMs,
  };
}

/** The thresholds checked against the summary; without any, every case must pass (`passRate: 1`). */
export function checkThresholds(
  summary: EvalSummary,
  thresholds: EvalThresholds | undefined,
): ThresholdResult[] {
  const results: ThresholdResult[] = [];
  const check = (name: string, required: number, actual: number): void => {
    // Rounding noise (0.1 + 0.2) must not fail a threshold that is met.
    results.push({ name, required, actual, passed: actual + 1e-9 >= required });
  };
  const given = thresholds ?? {};
  const none =
    given.passRate === undefined && given.meanScore === undefined && given.scorers === undefined;
  if (none) check('passRate', 1, summary.passRate);
  if (given.passRate !== undefined) check('passRate', given.passRate, summary.passRate);
  if (given.meanScore !== undefined) check('meanScore', given.meanScore, summary.meanScore);
  for (const [scorer, required] of Object.entries(given.scorers ?? {})) {
    check(`scorer:${scorer}`, required, summary.scorers[scorer]?.mean ?? 0);
  }
  return results;
}
