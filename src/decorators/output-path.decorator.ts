import { DecoratorError } from '../errors/decorator.error';
import { isOutputMethod, OUTPUT_METHODS, type OutputMethod } from '../protocol/output-method';
import { decoratedClass, registerOnce } from './decorator-target';
import type { OutputPathMetadataArgs } from './metadata-args';
import { getMetadataStorage } from './metadata-storage';

/** The LLM chooses the output path per Call: one of `oneOf`, or any path when `anyPath` is set. */
export type OutputPathChoice = { oneOf: readonly string[] } | { anyPath: true };

/**
 * The LLM chooses the output method per Call (R-OUT-4): one of `oneOf`, or any of the five with
 * `anyMethod`; `default` is the method of a Call that writes none (else `set`).
 */
export type OutputMethodChoice =
  | { oneOf: readonly OutputMethod[]; default?: OutputMethod }
  | { anyMethod: true; default?: OutputMethod };

/** Options of `@OutputPath`. */
export interface OutputPathOptions {
  /**
   * How the output is written (R-OUT-3): a fixed method (`_outputMethod: { const }`, hidden from the
   * LLM), or a choice left to the LLM. Absent: `set`.
   */
  method?: OutputMethod | OutputMethodChoice;
}

const FORBIDDEN_SEGMENTS = new Set(['__proto__', 'prototype', 'constructor']);

/**
 * Where the Call's output is written in the State (R-OUT-1): a fixed path (`_outputPath: { const }`,
 * hidden from the LLM), `{ oneOf: paths }` (the LLM picks one) or `{ anyPath: true }` (the LLM writes one);
 * `options.method` says how (R-OUT-3: `set`, `merge`, `assign`, `push`, `concat`), fixed or chosen.
 */
export function OutputPath(
  path: string | OutputPathChoice,
  options: OutputPathOptions = {},
): ClassDecorator {
  return (target) => {
    const type = decoratedClass('@OutputPath', target);
    const record: OutputPathMetadataArgs = { target: type, ...outputPathChoice(path, type.name) };
    if (options.method !== undefined) record.method = outputMethodChoice(options.method, type.name);
    registerOnce('@OutputPath', getMetadataStorage().outputPaths, record);
  };
}

/** What `@OutputPath(path, { method })` records: one fixed method, or the choice left to the LLM. */
function outputMethodChoice(
  method: OutputMethod | OutputMethodChoice,
  target: string,
): NonNullable<OutputPathMetadataArgs['method']> {
  if (typeof method === 'string') {
    assertMethod(method, target);
    return { mode: 'fixed', method };
  }
  const choice: unknown = method;
  const record =
    typeof choice === 'object' && choice !== null ? (choice as Record<string, unknown>) : {};
  let methods: OutputMethod[];
  if (record.anyMethod === true) methods = [...OUTPUT_METHODS];
  else if (Array.isArray(record.oneOf) && record.oneOf.length > 0) {
    for (const item of record.oneOf) assertMethod(item, target);
    methods = [...(record.oneOf as OutputMethod[])];
  } else {
    throw invalid(
      target,
      `expected an output method or { oneOf: [methods] } / { anyMethod: true }, got ${JSON.stringify(method)}.`,
    );
  }
  const result: NonNullable<OutputPathMetadataArgs['method']> = { mode: 'choice', methods };
  if (record.default !== undefined) {
    assertMethod(record.default, target);
    if (!methods.includes(record.default as OutputMethod)) {
      throw invalid(
        target,
        `the default method "${String(record.default)}" is not one of the choices.`,
      );
    }
    result.default = record.default as OutputMethod;
  }
  return result;
}

function assertMethod(method: unknown, target: string): void {
  if (!isOutputMethod(method)) {
    throw invalid(
      target,
      `${JSON.stringify(method)} is not an output method (expected ${OUTPUT_METHODS.join(', ')}).`,
    );
  }
}

/** What `@OutputPath(path)` records: one fixed path, or the choice left to the LLM. */
function outputPathChoice(
  path: string | OutputPathChoice,
  target: string,
): Omit<OutputPathMetadataArgs, 'target'> {
  if (typeof path === 'string') {
    assertPath(path, target);
    return { mode: 'fixed', path };
  }
  if (typeof path === 'object' && path !== null && 'anyPath' in path && path.anyPath === true) {
    return { mode: 'choice' };
  }
  const paths: unknown =
    typeof path === 'object' && path !== null && 'oneOf' in path ? path.oneOf : undefined;
  if (!Array.isArray(paths) || paths.length === 0) {
    throw invalid(
      target,
      `expected a path or { oneOf: [paths] } / { anyPath: true }, got ${JSON.stringify(path)}.`,
    );
  }
  for (const item of paths) assertPath(item, target);
  return { mode: 'choice', paths: [...(paths as string[])] };
}

function assertPath(path: unknown, target: string): void {
  if (typeof path !== 'string' || path.trim() === '') {
    throw invalid(target, `the output path ${JSON.stringify(path)} is empty or not a string.`);
  }
  const segments = path.split(/\|\||&&/).flatMap((alternative) => alternative.trim().split('.'));
  const forbidden = segments.find((segment) => FORBIDDEN_SEGMENTS.has(segment));
  if (forbidden !== undefined) {
    throw invalid(
      target,
      `the output path "${path}" contains the forbidden segment "${forbidden}" (R-OUT-2).`,
    );
  }
}

function invalid(target: string, problem: string): DecoratorError {
  return new DecoratorError({
    decorator: '@OutputPath',
    target,
    problem,
    solutions: [
      "Write to a fixed path: `@OutputPath('state.weather')`.",
      "Let the LLM pick one of several: `@OutputPath({ oneOf: ['state.today', 'state.tomorrow'] })`.",
      'Let the LLM write any path: `@OutputPath({ anyPath: true })`.',
      "Append to an array: `@OutputPath('state.log', { method: 'push' })`; let the LLM choose: `{ method: { oneOf: ['set', 'push'] } }`.",
    ],
  });
}
