import { DecoratorError } from '../errors/decorator.error';
import type { ClassConstructor } from './class-types';
import { assertReflectMetadata } from './reflect-metadata-check';

/**
 * Narrows the `target` a legacy class decorator receives to a class, rejecting misuse on members
 * (possible from JavaScript or with casts).
 */
function asDecoratedClass(decorator: string, target: unknown): ClassConstructor {
  if (typeof target === 'function') return target as ClassConstructor;
  throw new DecoratorError({
    decorator,
    target: String(target),
    problem: 'this decorator belongs on a class declaration.',
    solutions: [`Move ${decorator} above \`class …\`, not onto a property or method.`],
  });
}

/**
 * How every ideact class decorator starts: `target` must be a class and reflect-metadata loaded.
 * @internal
 */
export function decoratedClass(decorator: string, target: unknown): ClassConstructor {
  const type = asDecoratedClass(decorator, target);
  assertReflectMetadata(decorator, type.name);
  return type;
}

/**
 * Records what `decorator` says about its class in `records` (a list of the metadata storage),
 * throwing when it was already applied to exactly this class — also under its other name
 * (`@Module`/`@Delegate`, `@Imports`/`@Scopes`): `recordedBy` tells which name made a record.
 * @internal
 */
export function registerOnce<T extends { target: ClassConstructor }>(
  decorator: string,
  records: T[],
  record: T,
  recordedBy: (entry: T) => string = () => decorator,
): void {
  const existing = records.find((entry) => entry.target === record.target);
  if (existing !== undefined) {
    const other = recordedBy(existing);
    throw new DecoratorError({
      decorator,
      target: record.target.name,
      problem:
        other === decorator
          ? 'applied twice to the same class.'
          : `applied together with ${other}, its other name (the seeds' and the newer revision's names of one decorator).`,
      solutions:
        other === decorator
          ? [`Keep one ${decorator} on ${record.target.name}.`]
          : [`Keep either ${other} or ${decorator} on ${record.target.name}, not both.`],
    });
  }
  records.push(record);
}
