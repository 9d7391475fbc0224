import { isPlainObject } from '../internal/is-plain-object';
import type { ParamsValidationIssue } from '../errors/params-validation.error';
import type { ClassConstructor } from './class-types';
import { classTransformer, transformerStorage } from './class-validation-modules';

/** Keys class-transformer cannot copy: `constructor` crashes it, `__proto__` sets the prototype (data lost). */
const UNSAFE_KEYS = new Set(['constructor', '__proto__']);

/** A value set aside while class-transformer runs: `key` of the object at `path` in the instance. */
interface DetachedValue {
  path: ReadonlyArray<string | number>;
  key: string;
  value: unknown;
}

/** Params split for class-transformer: what it converts, and the values it must not touch. @internal */
export interface DetachedParams {
  /** The params without untyped values and unsafe keys: class-transformer's input. */
  typed: Record<string, unknown>;
  /** Values of properties without a class-transformer decorator (plain data), put back unchanged. */
  detached: DetachedValue[];
  /** `constructor` / `__proto__` keys where a class instance is built: rejected, with their path. */
  issues: ParamsValidationIssue[];
}

/**
 * Sets aside the values that class-transformer has no reason to convert: those of properties without
 * `@Type`, `@Transform` or `@Expose` (plain strings, numbers, objects, arrays). It copies such objects
 * key by key and crashes on a `constructor` key or turns a `__proto__` key into a prototype, losing
 * it; kept aside, they reach the Activity exactly as sent. Where a class instance is built (the tool
 * class, `@Type(() => X)` values) such keys cannot be properties and are reported as unknown params.
 * @internal
 */
export function detachUntypedValues(
  type: ClassConstructor,
  params: Record<string, unknown>,
): DetachedParams {
  const result: DetachedParams = { typed: {}, detached: [], issues: [] };
  result.typed = detachObject(type, params, [], result);
  return result;
}

/** Puts the detached values back into the instance class-transformer built, at their paths. @internal */
export function restoreUntypedValues(instance: object, detached: readonly DetachedValue[]): void {
  for (const { path, key, value } of detached) {
    let target: unknown = instance;
    for (const segment of path) target = (target as Record<string | number, unknown>)[segment];
    // The path only crosses objects this module passed to class-transformer, which rebuilds each one.
    if (typeof target !== 'object' || target === null) continue;
    Object.defineProperty(target, key, {
      value,
      writable: true,
      enumerable: true,
      configurable: true,
    });
  }
}

function detachObject(
  type: ClassConstructor,
  value: Record<string, unknown>,
  path: ReadonlyArray<string | number>,
  result: DetachedParams,
): Record<string, unknown> {
  const storage = transformerStorage();
  const typed: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const item = value[key];
    if (UNSAFE_KEYS.has(key)) {
      result.issues.push({
        path: [...path, key].join('.'),
        messages: [`property ${key} should not exist`],
        message: `property ${key} should not exist`,
      });
      continue;
    }
    const renamed = storage.findExposeMetadataByCustomName(type, key);
    const property = renamed?.propertyName ?? key;
    const typeMetadata = storage.findTypeMetadata(type, property);
    const converted =
      renamed !== undefined ||
      typeMetadata !== undefined ||
      storage.findExposeMetadata(type, property) !== undefined ||
      storage.findTransformMetadatas(
        type,
        property,
        classTransformer().TransformationType.PLAIN_TO_CLASS,
      ).length > 0;
    if (!converted) {
      result.detached.push({ path, key, value: item });
      continue;
    }
    const nested = typeMetadata?.options?.discriminator ? undefined : typeMetadata?.typeFunction();
    if (typeof nested !== 'function' || !isUserClass(nested)) {
      typed[key] = item;
    } else if (Array.isArray(item)) {
      typed[key] = item.map((element: unknown, index) =>
        isPlainObject(element)
          ? detachObject(nested as ClassConstructor, element, [...path, key, index], result)
          : element,
      );
    } else {
      typed[key] = isPlainObject(item)
        ? detachObject(nested as ClassConstructor, item, [...path, key], result)
        : item;
    }
  }
  return typed;
}

function isUserClass(value: unknown): boolean {
  return (
    typeof value === 'function' &&
    ![Object, Array, String, Number, Boolean, Date, Map, Set].includes(value as ObjectConstructor)
  );
}
