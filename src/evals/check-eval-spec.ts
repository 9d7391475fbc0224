import { InvalidEvalError } from '../errors/invalid-eval.error';
import type { EvalCase, EvalThresholds } from './eval-spec';
import { isPlainObject } from './scorers/partial-match';

/**
 * Checks the parts of an eval spec that are plain data (cases, thresholds, counts) before anything
 * runs, so a typo fails at once with the JSON path at fault instead of after an hour of runs.
 */

/** Checks the cases (objects with unique names, a string task, arrays of scorers). */
export function checkCases(cases: unknown, source: string): EvalCase[] {
  const fail = (jsonPath: string, reason: string): never => {
    throw new InvalidEvalError({ source, jsonPath, reason });
  };
  if (!Array.isArray(cases))
    return fail('/cases', 'cases must be an array, or the path of a .jsonl file');
  if (cases.length === 0) return fail('/cases', 'the eval has no cases');
  const names = new Set<string>();
  cases.forEach((item: unknown, index) => {
    const at = `/cases/${index}`;
    if (!isPlainObject(item)) return fail(at, 'a case must be an object { name, input, expected }');
    if (typeof item.name !== 'string' || item.name.trim() === '')
      fail(`${at}/name`, 'every case needs a name');
    if (names.has(item.name as string))
      fail(
        `${at}/name`,
        `two cases are named "${item.name as string}" (names identify cases in results and baselines)`,
      );
    names.add(item.name as string);
    if (item.task !== undefined && typeof item.task !== 'string')
      fail(`${at}/task`, 'the task must be a string');
    if (item.scorers !== undefined && !Array.isArray(item.scorers))
      fail(`${at}/scorers`, 'scorers must be an array');
    if (item.metadata !== undefined && !isPlainObject(item.metadata))
      fail(`${at}/metadata`, 'metadata must be an object');
    return undefined;
  });
  return cases as EvalCase[];
}

/** Checks the thresholds (numbers 0–1; tolerance ≥ 0). */
export function checkThresholdSpec(
  thresholds: unknown,
  source: string,
): EvalThresholds | undefined {
  if (thresholds === undefined) return undefined;
  const fail = (jsonPath: string, reason: string): never => {
    throw new InvalidEvalError({ source, jsonPath, reason });
  };
  if (!isPlainObject(thresholds))
    return fail('/thresholds', 'thresholds must be an object { passRate, meanScore, scorers }');
  const share = (value: unknown, at: string): void => {
    if (value !== undefined && (typeof value !== 'number' || !(value >= 0 && value <= 1))) {
      fail(at, 'expected a number from 0 to 1');
    }
  };
  share(thresholds.passRate, '/thresholds/passRate');
  share(thresholds.meanScore, '/thresholds/meanScore');
  if (
    thresholds.tolerance !== undefined &&
    (typeof thresholds.tolerance !== 'number' || !(thresholds.tolerance >= 0))
  ) {
    fail('/thresholds/tolerance', 'expected a number ≥ 0');
  }
  if (thresholds.scorers !== undefined) {
    if (!isPlainObject(thresholds.scorers))
      fail('/thresholds/scorers', 'expected { "<scorer name>": 0.8 }');
    for (const [name, value] of Object.entries(thresholds.scorers as Record<string, unknown>)) {
      share(value, `/thresholds/scorers/${name}`);
    }
  }
  return thresholds as EvalThresholds;
}

/** A positive whole number option of the spec (trials, concurrency, maxTurns), or undefined. */
export function checkCount(value: unknown, jsonPath: string, source: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
    throw new InvalidEvalError({ source, jsonPath, reason: 'expected a whole number ≥ 1' });
  }
  return value;
}
