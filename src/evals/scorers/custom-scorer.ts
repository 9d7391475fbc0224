import type { CustomScorer, ScoreValue } from '../eval-spec';
import type { ScoreResult } from '../eval-result';
import type { Scorer } from './scorer';

/**
 * A custom scorer (issue 33 item 2): the user's function of `{ case, output, events, usage, … }`
 * returns a score 0–1 (or a boolean) and a reason. A bare number gets a stock reason that says the
 * function gave none; a score outside 0–1 or a throw scores 0 with the reason why.
 */
export function customScorer(spec: CustomScorer): Scorer {
  const name = spec.name;
  const threshold = spec.threshold ?? 1;
  return {
    name,
    needsEvents: true,
    async score(trial): Promise<ScoreResult> {
      let value: ScoreValue;
      try {
        value = await spec.score({
          case: trial.case,
          output: trial.output,
          events: trial.events,
          usage: trial.usage,
          latencyMs: trial.latencyMs,
          stopReason: trial.stopReason,
          ...(trial.error === undefined ? {} : { error: trial.error }),
          runId: trial.runId,
          trial: trial.trial,
        });
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        return { scorer: name, score: 0, passed: false, reason: `the scorer threw: ${message}` };
      }
      const given = typeof value === 'object' && value !== null ? value : { score: value };
      const raw = given.score;
      const score = typeof raw === 'boolean' ? (raw ? 1 : 0) : raw;
      if (typeof score !== 'number' || !Number.isFinite(score) || score < 0 || score > 1) {
        return {
          scorer: name,
          score: 0,
          passed: false,
          reason: `the scorer returned ${JSON.stringify(raw)}, not a score from 0 to 1 (or a boolean)`,
        };
      }
      const reason =
        'reason' in given && typeof given.reason === 'string' && given.reason.trim() !== ''
          ? given.reason
          : `${name} gave ${score} (it returned no reason)`;
      const passed =
        'passed' in given && typeof given.passed === 'boolean' ? given.passed : score >= threshold;
      return { scorer: name, score, passed, reason };
    },
  };
}
