import { setOwn } from '../../../src/protocol/merge-patch';

/** Column limit for printing a nested all-primitive object/array on one line. */
const LINE_WIDTH = 80;
const INDENT = '  ';

/**
 * The reference printer the fast `formatJson` must match byte for byte (R-DATA-3): the earlier,
 * straightforward implementation — normalise a copy of the value like `JSON.stringify`, then print
 * it — kept here only to check the fast one against it.
 */
export function referenceFormatJson(value: unknown): string {
  const normalised = normalise(value);
  return printValue(normalised === undefined ? null : normalised, '', '', '', true);
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function normalise(value: unknown): Json | undefined {
  if (value === null) return null;
  if (typeof value === 'object' || typeof value === 'bigint') {
    const withJson = value as { toJSON?: unknown };
    if (typeof withJson.toJSON === 'function') {
      return normalise((withJson.toJSON as () => unknown).call(value));
    }
  }
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      return Number.isFinite(value) ? value : null;
    case 'bigint':
      return value.toString();
    case 'object': {
      if (Array.isArray(value)) {
        return value.map((item) => {
          const normalisedItem = normalise(item);
          return normalisedItem === undefined ? null : normalisedItem;
        });
      }
      const result: { [key: string]: Json } = {};
      for (const [key, item] of Object.entries(value as object)) {
        const normalisedItem = normalise(item);
        if (normalisedItem !== undefined) setOwn(result, key, normalisedItem);
      }
      return result;
    }
    default:
      return undefined;
  }
}

function isPrimitive(value: Json): boolean {
  return value === null || typeof value !== 'object';
}

function inline(value: Json): string | undefined {
  if (Array.isArray(value)) {
    if (!value.every(isPrimitive)) return undefined;
    return value.length === 0 ? '[]' : `[${value.map((item) => JSON.stringify(item)).join(', ')}]`;
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value);
    if (!entries.every(([, item]) => isPrimitive(item))) return undefined;
    if (entries.length === 0) return '{}';
    const members = entries.map(([key, item]) => `${JSON.stringify(key)}: ${JSON.stringify(item)}`);
    return `{ ${members.join(', ')} }`;
  }
  return JSON.stringify(value);
}

/**
 * Prints `value` on a line that starts with `indent + prefix` (prefix = `"key": ` or '') and ends with
 * `suffix` (',' or ''). Returns the text without the leading indent+prefix.
 */
function printValue(
  value: Json,
  indent: string,
  prefix: string,
  suffix: string,
  root = false,
): string {
  if (isPrimitive(value)) return JSON.stringify(value);
  if (!root) {
    const oneLine = inline(value);
    if (oneLine !== undefined) {
      const width = indent.length + prefix.length + oneLine.length + suffix.length;
      if (width <= LINE_WIDTH || oneLine === '{}' || oneLine === '[]') return oneLine;
    }
  }
  const inner = indent + INDENT;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    const lines = value.map((item, index) => {
      const itemSuffix = index < value.length - 1 ? ',' : '';
      return inner + printValue(item, inner, '', itemSuffix) + itemSuffix;
    });
    return `[\n${lines.join('\n')}\n${indent}]`;
  }
  const entries = Object.entries(value as { [key: string]: Json });
  if (entries.length === 0) return '{}';
  const lines = entries.map(([key, item], index) => {
    const itemSuffix = index < entries.length - 1 ? ',' : '';
    const keyPrefix = `${JSON.stringify(key)}: `;
    return inner + keyPrefix + printValue(item, inner, keyPrefix, itemSuffix) + itemSuffix;
  });
  return `{\n${lines.join('\n')}\n${indent}}`;
}
