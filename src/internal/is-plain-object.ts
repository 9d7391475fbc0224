/**
 * True for what JSON calls an object: not null, not an array. The one such check of ideact (schema
 * nodes, Idea and state files, replies), so every reader agrees on what an object is.
 * @internal
 */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
