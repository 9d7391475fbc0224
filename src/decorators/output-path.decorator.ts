import { DecoratorError } from '../errors/decorator.error';
import { decoratedClass, registerOnce } from './decorator-target';
import type { OutputPathMetadataArgs } from './metadata-args';
import { getMetadataStorage } from './metadata-storage';

/** The LLM chooses the output path per Call: one of `oneOf`, or any path when `anyPath` is set. */
export type OutputPathChoice = { oneOf: readonly string[] } | { anyPath: true };

const FORBIDDEN_SEGMENTS = new Set(['__proto__', 'prototype', 'constructor']);

/**
 * Where the Call's output is written in the State (R-OUT-1): a fixed path (`_outputPath: { const }`,
 * hidden from the LLM), `{ oneOf: paths }` (the LLM picks one) or `{ anyPath: true }` (the LLM writes one).
 */
export function OutputPath(path: string | OutputPathChoice): ClassDecorator {
  return (target) => {
    const type = decoratedClass('@OutputPath', target);
    registerOnce('@OutputPath', getMetadataStorage().outputPaths, {
      target: type,
      ...outputPathChoice(path, type.name),
    });
  };
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
    ],
  });
}
