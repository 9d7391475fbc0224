import type { ClassConstructor } from './class-types';
import { ownValidationMetadata } from './class-validation-modules';

const POSITIONS_KEY = Symbol.for('ideact.describe-position');

/**
 * Remembers where `@Describe` or `@Param` saw `type.propertyName` declared: how many class-validator
 * rules earlier properties had registered then. A property whose type rule ideact adds later (at the
 * end of class-validator's list) is placed among the others by it. The first record wins.
 * @internal
 */
export function recordDeclaredPosition(type: ClassConstructor, propertyName: string): void {
  let map = Reflect.getOwnMetadata(POSITIONS_KEY, type) as Map<string, number> | undefined;
  if (map === undefined) {
    map = new Map();
    Reflect.defineMetadata(POSITIONS_KEY, map, type);
  }
  if (!map.has(propertyName)) map.set(propertyName, ownValidationMetadata(type).length);
}

/**
 * Where `@Describe` or `@Param` saw `owner.propertyName` declared: the number of class-validator
 * rules `owner` had then (they belong to the properties declared before it). @internal
 */
export function declaredPosition(
  owner: ClassConstructor,
  propertyName: string,
): number | undefined {
  return (Reflect.getOwnMetadata(POSITIONS_KEY, owner) as Map<string, number> | undefined)?.get(
    propertyName,
  );
}
