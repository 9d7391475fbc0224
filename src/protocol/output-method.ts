/**
 * How a Call's output is written at its output path (R-OUT-3): `set` replaces the value (the default),
 * `merge` merges the output into it deeply (RFC 7386), `assign` replaces its top-level keys,
 * `push` appends the output to the array, `concat` appends the items of an array output.
 */
export type OutputMethod = 'set' | 'merge' | 'assign' | 'push' | 'concat';

/** Every output method, in the order they are documented and offered to the model. */
export const OUTPUT_METHODS: readonly OutputMethod[] = ['set', 'merge', 'assign', 'push', 'concat'];

/** The method of a write that names none (R-OUT-3). */
export const DEFAULT_OUTPUT_METHOD: OutputMethod = 'set';

/** True for one of the five output method names. */
export function isOutputMethod(value: unknown): value is OutputMethod {
  return typeof value === 'string' && (OUTPUT_METHODS as readonly string[]).includes(value);
}

const METHOD_MEANINGS: Readonly<Record<OutputMethod, string>> = {
  set: 'set = replace the value',
  merge: 'merge = deep-merge an object into it',
  assign: 'assign = replace its top-level keys',
  push: 'push = append the output to the array',
  concat: 'concat = append the items of an array output to the array',
};

/**
 * The description the Vessel gives `_outputMethod` when the Tool's schema has none (R-OUT-4): what
 * each offered method does, and which one a Call that writes none gets.
 */
export function describeOutputMethods(
  methods: readonly OutputMethod[],
  fallback: OutputMethod,
): string {
  const meanings = methods.map((method) => METHOD_MEANINGS[method]).join(', ');
  const omitted = methods.includes(fallback) ? ` (${fallback} when omitted)` : '';
  return `How the output is written at _outputPath${omitted}: ${meanings}.`;
}
