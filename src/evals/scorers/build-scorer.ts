import { InvalidEvalError } from '../../errors/invalid-eval.error';
import type { Provider } from '../../llm/provider';
import type { JSONSchema } from '../../protocol/json-schema';
import type { CustomScorer } from '../eval-spec';
import { formatOutputPath, parseOutputPath, type OutputPathSegment } from '../output-path';
import { customScorer } from './custom-scorer';
import { judgeScorer } from './judge-scorer';
import { containsScorer, equalsScorer, matchesScorer, schemaScorer } from './output-scorers';
import { isPlainObject } from './partial-match';
import type { Scorer } from './scorer';
import { toolCalledScorer } from './tool-called-scorer';
import { maxCostScorer, maxLatencyScorer, maxTurnsScorer } from './usage-scorers';

/** What building a scorer needs besides its spec. */
export interface ScorerBuildContext {
  /** The eval file (or `runEval(spec)`) for errors. */
  source: string;
  /** The judge's provider when a judge scorer names none; undefined when none is known. */
  judgeProvider?: Provider;
  /** The judge's model when a judge scorer names none. */
  judgeModel?: string;
  /** Turns a provider spec (`"offline"`, `"openai"`, a Provider) into a Provider. */
  providerOf(value: unknown, jsonPath: string): Provider;
}

/** The scorer types `type` may name. */
export const SCORER_TYPES = [
  'schema',
  'equals',
  'contains',
  'matches',
  'toolCalled',
  'maxTurns',
  'maxCost',
  'maxLatency',
  'judge',
] as const;

/**
 * Checks one scorer spec and builds it; a spec of the wrong shape is an {@link InvalidEvalError}
 * naming the JSON path (`/scorers/2/path`) and what to write instead.
 */
export function buildScorer(spec: unknown, jsonPath: string, context: ScorerBuildContext): Scorer {
  const fail = (at: string, reason: string, fix?: string): never => {
    throw new InvalidEvalError({
      source: context.source,
      jsonPath: `${jsonPath}${at}`,
      reason,
      fix,
    });
  };
  if (!isPlainObject(spec))
    return fail('', 'a scorer must be an object such as { "type": "equals", "path": "title" }');
  if (typeof spec.score === 'function') {
    if (typeof spec.name !== 'string' || spec.name === '') {
      return fail('/name', 'a custom scorer needs a name');
    }
    checkThreshold(spec.threshold, '/threshold', fail);
    return customScorer(spec as unknown as CustomScorer);
  }
  const type = spec.type;
  if (typeof type !== 'string' || !(SCORER_TYPES as readonly string[]).includes(type)) {
    return fail(
      '/type',
      `unknown scorer type ${JSON.stringify(type)}`,
      `Use one of ${SCORER_TYPES.join(', ')}, or a custom scorer { name, score(context) } in a .mjs/.ts eval file.`,
    );
  }
  if (spec.name !== undefined && (typeof spec.name !== 'string' || spec.name === '')) {
    fail('/name', 'a scorer name must be a non-empty string');
  }
  const threshold = checkThreshold(spec.threshold, '/threshold', fail);
  const named = (fallback: string): string => (spec.name as string | undefined) ?? fallback;
  const pathOf = (): OutputPathSegment[] => {
    if (spec.path === undefined) return [];
    if (typeof spec.path !== 'string')
      return fail('/path', 'the path must be a string such as "tracks[0].title"');
    const parsed = parseOutputPath(spec.path);
    return Array.isArray(parsed) ? parsed : fail('/path', parsed.error);
  };
  const value = { given: Object.prototype.hasOwnProperty.call(spec, 'value'), value: spec.value };
  switch (type) {
    case 'schema': {
      if (
        spec.schema !== undefined &&
        !isPlainObject(spec.schema) &&
        typeof spec.schema !== 'boolean'
      ) {
        fail('/schema', 'the schema must be a JSON Schema object');
      }
      return schemaScorer(named('schema'), spec.schema as JSONSchema | undefined, threshold);
    }
    case 'equals': {
      const path = pathOf();
      return equalsScorer({
        name: named(`equals(${formatOutputPath(path)})`),
        path,
        value,
        threshold,
      });
    }
    case 'contains': {
      const path = pathOf();
      return containsScorer({
        name: named(`contains(${formatOutputPath(path)})`),
        path,
        value,
        threshold,
      });
    }
    case 'matches': {
      const path = pathOf();
      if (typeof spec.pattern !== 'string')
        return fail('/pattern', 'matches needs a "pattern" (a regular expression as a string)');
      if (spec.flags !== undefined && typeof spec.flags !== 'string')
        fail('/flags', 'flags must be a string such as "i"');
      let pattern: RegExp;
      try {
        pattern = new RegExp(spec.pattern, spec.flags as string | undefined);
      } catch (error) {
        return fail(
          '/pattern',
          `not a regular expression (${error instanceof Error ? error.message : String(error)})`,
        );
      }
      return matchesScorer({
        name: named(`matches(${formatOutputPath(path)})`),
        path,
        pattern,
        threshold,
      });
    }
    case 'toolCalled': {
      if (typeof spec.tool !== 'string' || spec.tool === '')
        return fail('/tool', 'toolCalled needs the "tool" name');
      if (spec.params !== undefined && !isPlainObject(spec.params))
        fail('/params', 'params must be an object (matched partially)');
      const min = countOf(spec.min, '/min', fail) ?? 1;
      const max = countOf(spec.max, '/max', fail);
      if (max !== undefined && spec.min === undefined && max < min) {
        // `{ max: 0 }` alone means "never called".
        return toolCalledScorer({
          name: named(`toolCalled(${spec.tool})`),
          tool: spec.tool,
          params: spec.params as Record<string, unknown> | undefined,
          min: 0,
          max,
          threshold,
        });
      }
      if (max !== undefined && max < min) fail('/max', `max (${max}) is below min (${min})`);
      return toolCalledScorer({
        name: named(`toolCalled(${spec.tool})`),
        tool: spec.tool,
        params: spec.params as Record<string, unknown> | undefined,
        min,
        ...(max === undefined ? {} : { max }),
        threshold,
      });
    }
    case 'maxTurns': {
      const max = countOf(spec.max, '/max', fail);
      if (max === undefined) return fail('/max', 'maxTurns needs "max", a whole number of turns');
      return maxTurnsScorer(named('maxTurns'), max, threshold);
    }
    case 'maxCost': {
      const maxTokens = countOf(spec.maxTokens, '/maxTokens', fail);
      const maxUsd = positiveNumber(spec.maxUsd, '/maxUsd', fail);
      if (maxTokens === undefined && maxUsd === undefined) {
        return fail('', 'maxCost needs "maxTokens" and/or "maxUsd" (with "pricing")');
      }
      let pricing;
      if (maxUsd !== undefined) {
        const given = spec.pricing;
        if (
          !isPlainObject(given) ||
          positiveNumber(given.inputPerMillion, '/pricing/inputPerMillion', fail) === undefined ||
          positiveNumber(given.outputPerMillion, '/pricing/outputPerMillion', fail) === undefined
        ) {
          return fail(
            '/pricing',
            'maxUsd needs "pricing": { "inputPerMillion": …, "outputPerMillion": … } (dollars per million tokens)',
          );
        }
        positiveNumber(given.cachedInputPerMillion, '/pricing/cachedInputPerMillion', fail);
        pricing = given as {
          inputPerMillion: number;
          outputPerMillion: number;
          cachedInputPerMillion?: number;
        };
      }
      return maxCostScorer({
        name: named('maxCost'),
        ...(maxTokens === undefined ? {} : { maxTokens }),
        ...(maxUsd === undefined ? {} : { maxUsd, pricing }),
        threshold,
      });
    }
    case 'maxLatency': {
      const maxMs = positiveNumber(spec.maxMs, '/maxMs', fail);
      if (maxMs === undefined) return fail('/maxMs', 'maxLatency needs "maxMs", milliseconds');
      return maxLatencyScorer(named('maxLatency'), maxMs, threshold);
    }
    default: {
      if (typeof spec.rubric !== 'string' || spec.rubric.trim() === '') {
        return fail('/rubric', 'judge needs a "rubric": what a good output does, in words');
      }
      const votes = countOf(spec.votes, '/votes', fail) ?? 1;
      if (votes < 1) fail('/votes', 'votes must be at least 1');
      if (spec.model !== undefined && typeof spec.model !== 'string')
        fail('/model', 'model must be a string');
      const provider =
        spec.provider !== undefined
          ? context.providerOf(spec.provider, `${jsonPath}/provider`)
          : context.judgeProvider;
      if (provider === undefined) {
        return fail(
          '/provider',
          'the judge has no provider (an Agent target does not say which it runs on)',
          'Give the scorer a "provider", or the eval a judge: { provider }.',
        );
      }
      const model = (spec.model as string | undefined) ?? context.judgeModel;
      return judgeScorer({
        name: named('judge'),
        rubric: spec.rubric,
        votes,
        provider,
        ...(model === undefined ? {} : { model }),
        includeExpected: spec.includeExpected !== false,
        ...(spec.threshold === undefined ? {} : { threshold }),
      });
    }
  }
}

type Fail = (at: string, reason: string, fix?: string) => never;

function checkThreshold(value: unknown, at: string, fail: Fail): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !(value >= 0 && value <= 1))
    return fail(at, 'a threshold is a number from 0 to 1');
  return value;
}

function countOf(value: unknown, at: string, fail: Fail): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0)
    return fail(at, 'expected a whole number ≥ 0');
  return value;
}

function positiveNumber(value: unknown, at: string, fail: Fail): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0)
    return fail(at, 'expected a number ≥ 0');
  return value;
}
