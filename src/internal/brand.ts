/**
 * Brands for `isInstance` checks that hold across two loaded copies of ideact (where `instanceof`
 * fails): a value carries a hidden, globally registered (`Symbol.for`) key set to `true`.
 * @internal
 */

/** Marks `target` with `brand` (not enumerable, so JSON and spreads never see it). */
export function setBrand(target: object, brand: symbol): void {
  Object.defineProperty(target, brand, { value: true, enumerable: false });
}

/** True when `value` is an object marked with `brand` by {@link setBrand}, by any copy of ideact. */
export function hasBrand(value: unknown, brand: symbol): boolean {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as Record<symbol, unknown>)[brand] === true
  );
}
