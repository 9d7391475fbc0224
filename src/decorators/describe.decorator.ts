import { DecoratorError } from '../errors/decorator.error';
import type { ClassConstructor } from './class-types';
import { recordDeclaredPosition } from './declared-position';
import { classChain } from './metadata-storage';
import { assertReflectMetadata } from './reflect-metadata-check';

const DESCRIPTIONS_KEY = Symbol.for('ideact.describe');

/**
 * Describes one param (or output field) to the LLM: becomes the property's `description` in the
 * schema. Without a class-validator decorator (or `@Param`) the property is typed from its
 * TypeScript type (string, number, boolean, array) where the compiler recorded it. Stored on the
 * class (like class-validator's rules), so `getMetadataStorage().reset()` does not erase it.
 */
export function Describe(description: string): PropertyDecorator {
  return (target, propertyKey) => {
    const type = (typeof target === 'function' ? target : target.constructor) as ClassConstructor;
    const where = `${type.name}.${String(propertyKey)}`;
    assertReflectMetadata('@Describe', where);
    if (typeof target === 'function' || typeof propertyKey !== 'string') {
      throw new DecoratorError({
        decorator: '@Describe',
        target: where,
        problem: 'only instance properties with string keys can be described.',
        solutions: ['Put @Describe on an instance property of the params or output class.'],
      });
    }
    if (typeof description !== 'string' || description.trim() === '') {
      throw new DecoratorError({
        decorator: '@Describe',
        target: where,
        problem: 'the description is empty.',
        solutions: [
          "Say what the param means and its unit: `@Describe('City name, e.g. Paris')`.",
          'Remove @Describe.',
        ],
      });
    }
    const own = ownDescriptions(type);
    if (own.has(propertyKey)) {
      throw new DecoratorError({
        decorator: '@Describe',
        target: where,
        problem: 'applied twice to the same property.',
        solutions: ['Keep one @Describe per property.'],
      });
    }
    own.set(propertyKey, description);
    // Places a property that has only @Describe among the others in the schema (its type rule is
    // added later, at the end).
    recordDeclaredPosition(type, propertyKey);
  };
}

/** The descriptions declared on `type` itself (created on first use). @internal */
export function ownDescriptions(type: ClassConstructor): Map<string, string> {
  let map = Reflect.getOwnMetadata(DESCRIPTIONS_KEY, type) as Map<string, string> | undefined;
  if (map === undefined) {
    map = new Map();
    Reflect.defineMetadata(DESCRIPTIONS_KEY, map, type);
  }
  return map;
}

/** The `@Describe()` text of `type.propertyName`, own or inherited. @internal */
export function descriptionOf(type: ClassConstructor, propertyName: string): string | undefined {
  for (const entry of classChain(type)) {
    const map = Reflect.getOwnMetadata(DESCRIPTIONS_KEY, entry) as Map<string, string> | undefined;
    const description = map?.get(propertyName);
    if (description !== undefined) return description;
  }
  return undefined;
}
