import { DecoratorError } from '../errors/decorator.error';
import type { ClassConstructor } from './class-types';

/**
 * Narrows the `target` a legacy class decorator receives to a class, rejecting misuse on members
 * (possible from JavaScript or with casts).
 * @internal
 */
export function asDecoratedClass(decorator: string, target: unknown): ClassConstructor {
  if (typeof target === 'function') return target as ClassConstructor;
  throw new DecoratorError({
    decorator,
    target: String(target),
    problem: 'this decorator belongs on a class declaration.',
    solutions: [`Move ${decorator} above \`class …\`, not onto a property or method.`],
  });
}

/** Throws when `decorator` was already applied to exactly this class. @internal */
export function rejectDuplicate(
  decorator: string,
  target: ClassConstructor,
  existing: unknown,
): void {
  if (existing === undefined) return;
  throw new DecoratorError({
    decorator,
    target: target.name,
    problem: 'applied twice to the same class.',
    solutions: [`Keep one ${decorator} on ${target.name}.`],
  });
}
