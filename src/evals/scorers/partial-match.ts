import { isDeepStrictEqual } from 'node:util';

/**
 * True when `actual` matches `expected` partially: every key of an expected object is in the actual
 * object and matches (recursively; extra keys are fine); arrays and other values must be equal.
 * Shared by `contains` (objects in an array, an object in an object) and `toolCalled` (params).
 */
export function matchesPartially(actual: unknown, expected: unknown): boolean {
  if (isPlainObject(expected)) {
    if (!isPlainObject(actual)) return false;
    return Object.entries(expected).every(
      ([key, value]) =>
        Object.prototype.hasOwnProperty.call(actual, key) && matchesPartially(actual[key], value),
    );
  }
  return isDeepStrictEqual(actual, expected);
}

/** A JSON object (not an array, not null). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
