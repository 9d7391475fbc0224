/**
 * A compiled deep comparison with one JSON value as it is now (issue 28): the validator cache checks
 * that a schema object passed again was not edited in place since it was compiled, on every request;
 * a generated function of straight-line property reads does that ~6× faster than walking the schema
 * beside a copy of it. @internal
 */

/** Tells whether `candidate` still equals the snapshot's value (same keys, same primitives). */
export type SnapshotCheck = (candidate: unknown) => boolean;

/** Values with more nodes than this are compared by walking them (a generated function would be large). */
const MAX_NODES = 2_000;

/**
 * The check for `value` (a plain JSON value: objects, arrays, strings, finite numbers, booleans,
 * null), or undefined when it cannot be generated (too many nodes, other values, code generation
 * not allowed): the caller then compares by walking. `value` must not change afterwards — pass a copy.
 */
export function snapshotCheck(value: unknown): SnapshotCheck | undefined {
  const lines: string[] = [];
  let names = 0;
  let nodes = 0;
  const visit = (expression: string, node: unknown): boolean => {
    nodes += 1;
    if (nodes > MAX_NODES) return false;
    if (node === null || typeof node === 'boolean') {
      lines.push(`if (${expression} !== ${String(node)}) return false;`);
      return true;
    }
    if (typeof node === 'string') {
      // JSON string literals are JavaScript string literals (ES2019: U+2028/2029 included).
      lines.push(`if (${expression} !== ${JSON.stringify(node)}) return false;`);
      return true;
    }
    if (typeof node === 'number') {
      if (!Number.isFinite(node)) return false;
      lines.push(`if (${expression} !== ${String(node)}) return false;`);
      return true;
    }
    if (typeof node !== 'object') return false;
    const name = `v${names++}`;
    lines.push(`const ${name} = ${expression};`);
    if (Array.isArray(node)) {
      lines.push(`if (!Array.isArray(${name}) || ${name}.length !== ${node.length}) return false;`);
      return node.every((item, index) => visit(`${name}[${index}]`, item));
    }
    const record = node as Record<string, unknown>;
    const keys = Object.keys(record);
    lines.push(
      `if (typeof ${name} !== 'object' || ${name} === null || Array.isArray(${name}) || Object.keys(${name}).length !== ${keys.length}) return false;`,
    );
    // A key read as `o["__proto__"]` would reach the prototype, not the own property: walk instead.
    return keys.every(
      (key) => key !== '__proto__' && visit(`${name}[${JSON.stringify(key)}]`, record[key]),
    );
  };
  if (!visit('candidate', value)) return undefined;
  lines.push('return true;');
  try {
    // Generated from JSON literals only (keys and strings through JSON.stringify).
    return new Function('candidate', lines.join('\n')) as SnapshotCheck;
  } catch {
    // Code generation disallowed (e.g. a strict Content-Security-Policy): compare by walking.
    return undefined;
  }
}
