import type { CaseDiff, ExperimentComparison, ExperimentResult } from './eval-result';

/**
 * Two experiments case by case (issue 33 item 3): `ideact eval --baseline` and the playground's
 * side-by-side view. A case regressed when its score fell by more than `tolerance` below the
 * baseline's; improved when it rose by more; cases only in one of them are `added` / `removed`.
 */
export function compareExperiments(
  baseline: Pick<ExperimentResult, 'id' | 'cases' | 'summary'>,
  current: Pick<ExperimentResult, 'id' | 'cases' | 'summary'>,
  tolerance = 0,
): ExperimentComparison {
  const before = new Map(baseline.cases.map((item) => [item.name, item]));
  const seen = new Set<string>();
  const cases: CaseDiff[] = [];
  // Float noise (0.1 + 0.2 − 0.3) is not a change.
  const epsilon = 1e-9;
  for (const item of current.cases) {
    seen.add(item.name);
    const old = before.get(item.name);
    if (old === undefined) {
      cases.push({ name: item.name, change: 'added', score: item.score, passed: item.passed });
      continue;
    }
    const delta = item.score - old.score;
    cases.push({
      name: item.name,
      change:
        delta < -tolerance - epsilon
          ? 'regressed'
          : delta > tolerance + epsilon
            ? 'improved'
            : 'same',
      baselineScore: old.score,
      score: item.score,
      delta,
      baselinePassed: old.passed,
      passed: item.passed,
    });
  }
  for (const old of baseline.cases) {
    if (seen.has(old.name)) continue;
    cases.push({
      name: old.name,
      change: 'removed',
      baselineScore: old.score,
      baselinePassed: old.passed,
    });
  }
  return {
    baselineId: baseline.id,
    experimentId: current.id,
    tolerance,
    cases,
    regressions: cases.filter((item) => item.change === 'regressed').length,
    improvements: cases.filter((item) => item.change === 'improved').length,
    meanScoreDelta: current.summary.meanScore - baseline.summary.meanScore,
  };
}
