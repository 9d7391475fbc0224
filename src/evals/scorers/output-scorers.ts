import { isDeepStrictEqual } from 'node:util';
import { compileValidator, formatIssues, type JsonValidator } from '../../protocol/json-validation';
import type { JSONSchema } from '../../protocol/json-schema';
import type { ScoreResult } from '../eval-result';
import { formatOutputPath, valueAtPath, type OutputPathSegment } from '../output-path';
import { matchesPartially, isPlainObject } from './partial-match';
import {
  checkResult,
  hasOutput,
  noOutputReason,
  shortJson,
  type Scorer,
  type TrialFacts,
} from './scorer';

/**
 * The scorers that read the output (issue 33 item 2): `schema` (it validates), `equals`, `contains`
 * and `matches` on a path of it. Each says in its reason what it found and what it wanted.
 */

/** `schema`: the output validates against `schema` (else the target's output schema). */
export function schemaScorer(
  name: string,
  schema: JSONSchema | undefined,
  threshold?: number,
): Scorer {
  // Compiled once per schema (the target's output schema is the same object for every trial).
  let compiled: { schema: JSONSchema; validate: JsonValidator } | undefined;
  return {
    name,
    needsEvents: false,
    score(trial) {
      if (!hasOutput(trial)) return checkResult(name, false, noOutputReason(trial), threshold);
      const against = schema ?? trial.outputSchema;
      if (against === undefined) {
        return checkResult(
          name,
          true,
          'the run ended with an output (the target declares no output schema)',
          threshold,
        );
      }
      if (compiled?.schema !== against)
        compiled = { schema: against, validate: compileValidator(against) };
      const issues = compiled.validate(trial.output);
      return issues.length === 0
        ? checkResult(name, true, 'the output validates against the schema', threshold)
        : checkResult(
            name,
            false,
            `the output does not validate: ${formatIssues(issues).replace(/\n/g, '; ')}`,
            threshold,
          );
    },
  };
}

/** Options of the path scorers: the path, and the value given (else the expected value there). */
interface PathScorerOptions {
  name: string;
  path: OutputPathSegment[];
  value: { given: boolean; value: unknown };
  threshold?: number;
}

/** `equals`: the value at the path deeply equals the given (or expected) value. */
export function equalsScorer(options: PathScorerOptions): Scorer {
  const { name, path, threshold } = options;
  const where = formatOutputPath(path);
  return {
    name,
    needsEvents: false,
    score(trial) {
      const wanted = wantedValue(options, trial);
      if ('skip' in wanted) return wanted.skip;
      const found = valueAtPath(trial.output, path);
      if (!hasOutput(trial)) return checkResult(name, false, noOutputReason(trial), threshold);
      if (!found.found)
        return checkResult(name, false, `${where} is missing from the output`, threshold);
      return isDeepStrictEqual(found.value, wanted.value)
        ? checkResult(name, true, `${where} is ${shortJson(found.value)}, as expected`, threshold)
        : checkResult(
            name,
            false,
            `${where} is ${shortJson(found.value)}, expected ${shortJson(wanted.value)}`,
            threshold,
          );
    },
  };
}

/** `contains`: a substring, an array element (objects partially) or a partial object at the path. */
export function containsScorer(options: PathScorerOptions): Scorer {
  const { name, path, threshold } = options;
  const where = formatOutputPath(path);
  return {
    name,
    needsEvents: false,
    score(trial) {
      const wanted = wantedValue(options, trial);
      if ('skip' in wanted) return wanted.skip;
      if (!hasOutput(trial)) return checkResult(name, false, noOutputReason(trial), threshold);
      const found = valueAtPath(trial.output, path);
      if (!found.found)
        return checkResult(name, false, `${where} is missing from the output`, threshold);
      const haystack = found.value;
      const needle = wanted.value;
      const shown = `${where} (${shortJson(haystack, 60)})`;
      if (typeof haystack === 'string') {
        if (typeof needle !== 'string') {
          return checkResult(
            name,
            false,
            `${where} is a string; look for a string in it, not ${shortJson(needle)}`,
            threshold,
          );
        }
        return haystack.includes(needle)
          ? checkResult(name, true, `${shown} contains ${shortJson(needle)}`, threshold)
          : checkResult(name, false, `${shown} does not contain ${shortJson(needle)}`, threshold);
      }
      if (Array.isArray(haystack)) {
        const index = haystack.findIndex((element) => matchesPartially(element, needle));
        return index >= 0
          ? checkResult(name, true, `${where}[${index}] matches ${shortJson(needle)}`, threshold)
          : checkResult(
              name,
              false,
              `no element of ${where} (${haystack.length} element(s)) matches ${shortJson(needle)}`,
              threshold,
            );
      }
      if (isPlainObject(haystack) && isPlainObject(needle)) {
        return matchesPartially(haystack, needle)
          ? checkResult(name, true, `${shown} contains ${shortJson(needle)}`, threshold)
          : checkResult(name, false, `${shown} does not contain ${shortJson(needle)}`, threshold);
      }
      return checkResult(
        name,
        false,
        `${where} is ${shortJson(haystack)}: contains looks into a string, an array or an object`,
        threshold,
      );
    },
  };
}

/** `matches`: the string at the path matches a regular expression. */
export function matchesScorer(options: {
  name: string;
  path: OutputPathSegment[];
  pattern: RegExp;
  threshold?: number;
}): Scorer {
  const { name, path, pattern, threshold } = options;
  const where = formatOutputPath(path);
  return {
    name,
    needsEvents: false,
    score(trial) {
      if (!hasOutput(trial)) return checkResult(name, false, noOutputReason(trial), threshold);
      const found = valueAtPath(trial.output, path);
      if (!found.found)
        return checkResult(name, false, `${where} is missing from the output`, threshold);
      if (typeof found.value !== 'string') {
        return checkResult(
          name,
          false,
          `${where} is ${shortJson(found.value)}, not a string to match ${pattern}`,
          threshold,
        );
      }
      pattern.lastIndex = 0;
      return pattern.test(found.value)
        ? checkResult(
            name,
            true,
            `${where} ${shortJson(found.value)} matches ${pattern}`,
            threshold,
          )
        : checkResult(
            name,
            false,
            `${where} ${shortJson(found.value)} does not match ${pattern}`,
            threshold,
          );
    },
  };
}

/** The value to compare with: the scorer's own, else the case's expected value at the path. */
function wantedValue(
  options: PathScorerOptions,
  trial: TrialFacts,
): { value: unknown } | { skip: ScoreResult } {
  if (options.value.given) return { value: options.value.value };
  const expected = valueAtPath(trial.expected, options.path);
  if (trial.expected === undefined || !expected.found) {
    return {
      skip: checkResult(
        options.name,
        false,
        `the case has no expected value at ${formatOutputPath(options.path)} and the scorer gives no value`,
        options.threshold,
      ),
    };
  }
  return { value: expected.value };
}
