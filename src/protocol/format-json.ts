/** Column limit for printing a nested all-primitive object/array on one line. */
const LINE_WIDTH = 80;
const INDENT = '  ';

/**
 * Deterministic pretty printer used for everything the LLM sees (R-DATA-3): 2-space indent, key
 * order as given, the root always expanded, and a nested object/array whose members are all
 * primitives printed on one line (`{ "type": "string" }`, `[1, 2]`) when that line fits in 80 columns.
 * Values are normalised like `JSON.stringify` (`toJSON`, `undefined` keys dropped, non-finite → null).
 * One pass over the value, no copy of it: the prompt of every turn is printed with it (issue 28).
 */
export function formatJson(value: unknown): string {
  const root = jsonValue(value);
  return root === undefined ? 'null' : printValue(root, '', 0, 0, true);
}

/**
 * A value as JSON sees it: `toJSON()` applied, a BigInt as its digits, a non-finite number as null;
 * undefined for what JSON leaves out (undefined, functions, symbols). Objects and arrays are
 * returned as they are (their members are read the same way when printed).
 */
function jsonValue(value: unknown): unknown {
  if (value === null) return null;
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      return Number.isFinite(value) ? value : null;
    case 'bigint': {
      const converted = withToJson(value);
      return converted === NO_TO_JSON ? value.toString() : jsonValue(converted);
    }
    case 'object': {
      const converted = withToJson(value);
      return converted === NO_TO_JSON ? value : jsonValue(converted);
    }
    default:
      return undefined;
  }
}

const NO_TO_JSON = Symbol('no toJSON');

/** `value.toJSON()` when it has one, else NO_TO_JSON. */
function withToJson(value: object | bigint): unknown {
  const toJson = (value as { toJSON?: unknown }).toJSON;
  return typeof toJson === 'function' ? (toJson as () => unknown).call(value) : NO_TO_JSON;
}

/** True for what prints as a JSON primitive (after `jsonValue`). */
function isPrimitive(value: unknown): boolean {
  return value === null || typeof value !== 'object';
}

/**
 * The one-line form of an object or array whose members are all primitives (`[1, 2]`,
 * `{ "a": 1 }`), or undefined when a member is an object or array.
 */
function inline(value: object): string | undefined {
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    let text = '[';
    for (let index = 0; index < value.length; index++) {
      const item = jsonValue(value[index]);
      if (!isPrimitive(item)) return undefined;
      text += `${index === 0 ? '' : ', '}${item === undefined ? 'null' : JSON.stringify(item)}`;
    }
    return `${text}]`;
  }
  let text = '';
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  for (let index = 0; index < keys.length; index++) {
    const key = keys[index] as string;
    const item = jsonValue(record[key]);
    if (item === undefined) continue;
    if (!isPrimitive(item)) return undefined;
    text += `${text === '' ? '' : ', '}${keyPrefix(key)}${JSON.stringify(item)}`;
  }
  return text === '' ? '{}' : `{ ${text} }`;
}

/** `"key": ` per key, kept for the keys seen most (prompts repeat the same few keys every turn). */
const keyPrefixes = new Map<string, string>();
const KEY_PREFIX_LIMIT = 4096;

function keyPrefix(key: string): string {
  let prefix = keyPrefixes.get(key);
  if (prefix === undefined) {
    prefix = `${JSON.stringify(key)}: `;
    if (keyPrefixes.size < KEY_PREFIX_LIMIT) keyPrefixes.set(key, prefix);
  }
  return prefix;
}

/**
 * Prints `value` (a JSON value after `jsonValue`) on a line that starts with `indent` plus a prefix of
 * `prefixLength` characters (`"key": `) and ends with a suffix of `suffixLength` (`,`). Returns the
 * text without the leading indent and prefix.
 */
function printValue(
  value: unknown,
  indent: string,
  prefixLength: number,
  suffixLength: number,
  root = false,
): string {
  if (isPrimitive(value)) return JSON.stringify(value);
  const container = value as object;
  if (!root) {
    const oneLine = inline(container);
    if (oneLine !== undefined) {
      const width = indent.length + prefixLength + oneLine.length + suffixLength;
      if (width <= LINE_WIDTH || oneLine === '{}' || oneLine === '[]') return oneLine;
    }
  }
  const inner = indent + INDENT;
  if (Array.isArray(container)) {
    if (container.length === 0) return '[]';
    let text = '[\n';
    const last = container.length - 1;
    for (let index = 0; index <= last; index++) {
      const item = jsonValue(container[index]);
      const suffix = index < last ? ',' : '';
      const printed = item === undefined ? 'null' : printValue(item, inner, 0, suffix.length);
      text += `${inner}${printed}${suffix}\n`;
    }
    return `${text}${indent}]`;
  }
  const record = container as Record<string, unknown>;
  const keys = Object.keys(record);
  // The last member JSON keeps prints without a comma (which a nested one-line form may use):
  // found from the end, where it nearly always is the last key.
  let last = keys.length - 1;
  while (last >= 0 && jsonValue(record[keys[last] as string]) === undefined) last--;
  if (last < 0) return '{}';
  let text = '';
  for (let index = 0; index <= last; index++) {
    const key = keys[index] as string;
    const item = jsonValue(record[key]);
    if (item === undefined) continue;
    const prefix = keyPrefix(key);
    const printed = printValue(item, inner, prefix.length, index === last ? 0 : 1);
    // The comma goes before the next member: valid JSON even if a `toJSON` answers differently twice.
    text += `${text === '' ? '{\n' : ',\n'}${inner}${prefix}${printed}`;
  }
  if (text === '') return '{}';
  text += '\n';
  return `${text}${indent}}`;
}
