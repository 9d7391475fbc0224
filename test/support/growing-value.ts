/**
 * Checks for partial values that grow (issue 32, item 3): `isPrefixValue(earlier, later)` is true when
 * `earlier` is what a prefix of `later`'s JSON text parses to with unfinished strings, arrays and
 * objects closed: a string is a prefix of the later string, an array's items are the later array's
 * first items (all equal but the last, which is a prefix of its counterpart), an object's keys are
 * the later object's first keys (all values equal but the last, which is a prefix), and numbers,
 * booleans and null are equal.
 */
export function isPrefixValue(earlier: unknown, later: unknown): boolean {
  if (typeof earlier === 'string') return typeof later === 'string' && later.startsWith(earlier);
  if (Array.isArray(earlier)) {
    if (!Array.isArray(later) || earlier.length > later.length) return false;
    return earlier.every((item, index) =>
      index === earlier.length - 1
        ? isPrefixValue(item, later[index])
        : JSON.stringify(item) === JSON.stringify(later[index]),
    );
  }
  if (typeof earlier === 'object' && earlier !== null) {
    if (typeof later !== 'object' || later === null || Array.isArray(later)) return false;
    const keys = Object.keys(earlier);
    const laterKeys = Object.keys(later);
    if (keys.some((key, index) => laterKeys[index] !== key)) return false;
    return keys.every((key, index) => {
      const left = (earlier as Record<string, unknown>)[key];
      const right = (later as Record<string, unknown>)[key];
      return index === keys.length - 1
        ? isPrefixValue(left, right)
        : JSON.stringify(left) === JSON.stringify(right);
    });
  }
  return JSON.stringify(earlier) === JSON.stringify(later);
}

/** True when every value is a prefix value of the next one (see {@link isPrefixValue}). */
export function growsMonotonically(values: readonly unknown[]): boolean {
  return values.every((value, index) => index === 0 || isPrefixValue(values[index - 1], value));
}
