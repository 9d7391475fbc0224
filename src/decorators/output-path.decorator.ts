import { DecoratorError } from '../errors/decorator.error';
import { asDecoratedClass, rejectDuplicate } from './decorator-target';
import { getMetadataStorage } from './metadata-storage';
import { assertReflectMetadata } from './reflect-metadata-check';

/** The LLM chooses the output path per Call: one of `oneOf`, or any path when `anyPath` is set. */
export type OutputPathChoice = { oneOf: readonly string[] } | { anyPath: true };

const FORBIDDEN_SEGMENTS = new Set(['__proto__', 'prototype', 'constructor']);

/**
 * Where the Call's output is written in the State (R-OUT-1): a fixed path (`_outputPath: { const }`,
 * hidden from the LLM), `{ oneOf: paths }` (the LLM picks one) or `{ anyPath: true }` (the LLM writes one).
 */
export function OutputPath(path: string | OutputPathChoice): ClassDecorator {
  return (target) => {
    const type = asDecoratedClass('@OutputPath', target);
    assertReflectMetadata('@OutputPath', type.name);
    const storage = getMetadataStorage();
    rejectDuplicate('@OutputPath', type, storage.findOwn(storage.outputPaths, type));
    if (typeof path === 'string') {
      assertPath(path, type.name);
      storage.outputPaths.push({ target: type, mode: 'fixed', path });
      return;
    }
    if (typeof path === 'object' && path !== null && 'anyPath' in path && path.anyPath === true) {
      storage.outputPaths.push({ target: type, mode: 'choice' });
      return;
    }
    const paths: unknown =
      typeof path === 'object' && path !== null && 'oneOf' in path ? path.oneOf : undefined;
    if (!Array.isArray(paths) || paths.length === 0) {
      throw invalid(
        type.name,
        `expected a path or { oneOf: [paths] } / { anyPath: true }, got ${JSON.stringify(path)}.`,
      );
    }
    for (const item of paths) assertPath(item, type.name);
    storage.outputPaths.push({ target: type, mode: 'choice', paths: [...(paths as string[])] });
  };
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
