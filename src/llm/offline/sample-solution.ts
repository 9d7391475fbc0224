import { isPlainObject } from '../../internal/is-plain-object';
import type { JSONSchema } from '../../protocol/json-schema';
import { validateJson } from '../../protocol/json-validation';
import { withRootDefinitions } from '../../protocol/root-definitions';
import { mergeAllOf, resolveLocalRef, typesOf } from '../strict/strict-schema-rules';

/** Sample strings for the formats ajv-formats checks. */
const FORMAT_SAMPLES: Record<string, string> = {
  'date-time': '2000-01-01T00:00:00Z',
  date: '2000-01-01',
  time: '00:00:00Z',
  duration: 'P1D',
  email: 'offline@example.com',
  'idn-email': 'offline@example.com',
  hostname: 'example.com',
  'idn-hostname': 'example.com',
  ipv4: '127.0.0.1',
  ipv6: '::1',
  uri: 'https://example.com/',
  'uri-reference': 'https://example.com/',
  iri: 'https://example.com/',
  'iri-reference': 'https://example.com/',
  'uri-template': 'https://example.com/{id}',
  url: 'https://example.com/',
  uuid: '00000000-0000-4000-8000-000000000000',
  'json-pointer': '/offline',
  'relative-json-pointer': '0',
  regex: '^offline$',
  byte: 'b2ZmbGluZQ==',
  int32: '0',
  int64: '0',
  float: '0',
  double: '0',
  password: 'offline',
  binary: 'offline',
};

/** Strings tried, in order, against a `pattern`. */
const PATTERN_CANDIDATES = ['offline', 'a', 'A', '0', 'a0', 'A0', 'aa', 'x', ''];

const MAX_DEPTH = 32;

/**
 * Builds a deterministic value for a JSON Schema from its `const`, `enum`, `default`, `examples` and
 * types (required properties, `minItems` items, the first valid `anyOf` branch, `$ref`s, formats,
 * bounds). Same schema → same value. Not guaranteed for unsatisfiable or exotic schemas; callers validate.
 */
export function sampleSolution(schema: JSONSchema): unknown {
  return sample(schema, schema, 0);
}

// Builds a value by following one branch of the schema, not every subschema: not a schema-walk traversal.
function sample(node: JSONSchema | boolean, root: JSONSchema, depth: number): unknown {
  if (typeof node === 'boolean' || !isPlainObject(node) || depth > MAX_DEPTH) return null;
  if (typeof node.$ref === 'string') {
    const target = resolveLocalRef(node.$ref, root);
    return target === undefined ? null : sample(target, root, depth + 1);
  }
  if (node.allOf !== undefined) return sample(mergeAllOf(node, root), root, depth + 1);
  if (node.const !== undefined) return node.const;
  if (Array.isArray(node.enum) && node.enum.length > 0) return node.enum[0];
  for (const candidate of [node.default, ...(Array.isArray(node.examples) ? node.examples : [])]) {
    if (candidate !== undefined && isValid(node, root, candidate)) return candidate;
  }
  const branches = node.anyOf ?? node.oneOf;
  if (Array.isArray(branches) && branches.length > 0) {
    const candidates = branches.map((branch) =>
      sample({ ...stripCombinators(node), ...branch }, root, depth + 1),
    );
    return candidates.find((candidate) => isValid(node, root, candidate)) ?? candidates[0];
  }
  const types = typesOf(node);
  const type =
    types.find((name) => name !== 'null') ?? (types.includes('null') ? 'null' : inferType(node));
  switch (type) {
    case 'object':
      return sampleObject(node, root, depth);
    case 'array':
      return sampleArray(node, root, depth);
    case 'string':
      return sampleString(node);
    case 'number':
    case 'integer':
      return sampleNumber(node, type === 'integer');
    case 'boolean':
      return false;
    default:
      return null;
  }
}

function stripCombinators(node: JSONSchema): JSONSchema {
  const { anyOf: _anyOf, oneOf: _oneOf, ...rest } = node;
  return rest;
}

function inferType(node: JSONSchema): string | undefined {
  if (
    isPlainObject(node.properties) ||
    node.required !== undefined ||
    isPlainObject(node.additionalProperties)
  ) {
    return 'object';
  }
  if (node.items !== undefined || node.prefixItems !== undefined || node.minItems !== undefined)
    return 'array';
  if (node.minLength !== undefined || node.pattern !== undefined || node.format !== undefined)
    return 'string';
  if (node.minimum !== undefined || node.maximum !== undefined || node.multipleOf !== undefined)
    return 'number';
  return undefined;
}

function sampleObject(node: JSONSchema, root: JSONSchema, depth: number): Record<string, unknown> {
  const properties = isPlainObject(node.properties) ? node.properties : {};
  const result: Record<string, unknown> = {};
  for (const name of node.required ?? []) {
    const property =
      properties[name] ??
      (isPlainObject(node.additionalProperties) ? node.additionalProperties : true);
    result[name] = sample(property, root, depth + 1);
  }
  const minProperties = typeof node.minProperties === 'number' ? node.minProperties : 0;
  for (const [name, property] of Object.entries(properties)) {
    if (Object.keys(result).length >= minProperties) break;
    if (!(name in result)) result[name] = sample(property, root, depth + 1);
  }
  for (let index = 0; Object.keys(result).length < minProperties; index++) {
    const additional = isPlainObject(node.additionalProperties) ? node.additionalProperties : true;
    result[`offline${index}`] = sample(additional, root, depth + 1);
  }
  return result;
}

function sampleArray(node: JSONSchema, root: JSONSchema, depth: number): unknown[] {
  const minItems = typeof node.minItems === 'number' ? node.minItems : 0;
  const tuple = Array.isArray(node.prefixItems)
    ? node.prefixItems
    : Array.isArray(node.items)
      ? node.items
      : undefined;
  const result: unknown[] = [];
  if (tuple !== undefined) {
    for (const item of tuple) result.push(sample(item as JSONSchema, root, depth + 1));
    return result.slice(0, Math.max(minItems, tuple.length));
  }
  const items = (node.items as JSONSchema | boolean | undefined) ?? true;
  for (let index = 0; index < minItems; index++) {
    let value = sample(items, root, depth + 1);
    if (node.uniqueItems === true) value = distinct(value, index);
    result.push(value);
  }
  return result;
}

/** Makes the `index`-th copy of a sampled item differ from the others (for `uniqueItems`). */
function distinct(value: unknown, index: number): unknown {
  if (index === 0) return value;
  if (typeof value === 'number') return value + index;
  if (typeof value === 'string') return `${value}${index}`;
  return value;
}

function sampleString(node: JSONSchema): string {
  const minLength = typeof node.minLength === 'number' ? node.minLength : 0;
  const maxLength = typeof node.maxLength === 'number' ? node.maxLength : Infinity;
  const fit = (text: string): string => {
    let value = text;
    while (value.length < minLength) value += 'x';
    return value.length > maxLength ? value.slice(0, maxLength) : value;
  };
  if (typeof node.format === 'string' && FORMAT_SAMPLES[node.format] !== undefined) {
    return FORMAT_SAMPLES[node.format];
  }
  if (typeof node.pattern === 'string') {
    try {
      const pattern = new RegExp(node.pattern, 'u');
      const match = PATTERN_CANDIDATES.map(fit).find((candidate) => pattern.test(candidate));
      if (match !== undefined) return match;
    } catch {
      // an invalid pattern: fall through to the plain sample
    }
  }
  return fit('offline');
}

function sampleNumber(node: JSONSchema, integer: boolean): number {
  const step =
    typeof node.multipleOf === 'number' && node.multipleOf > 0 ? node.multipleOf : undefined;
  let lower = -Infinity;
  if (typeof node.minimum === 'number') lower = node.minimum;
  if (typeof node.exclusiveMinimum === 'number') {
    lower = Math.max(lower, node.exclusiveMinimum + (integer || step === undefined ? 1 : 0));
  }
  let upper = Infinity;
  if (typeof node.maximum === 'number') upper = node.maximum;
  if (typeof node.exclusiveMaximum === 'number')
    upper = Math.min(upper, node.exclusiveMaximum - (integer ? 1 : 0));
  let value = lower === -Infinity ? (upper < 0 ? upper : 0) : lower;
  if (integer) value = Math.ceil(value);
  if (step !== undefined) {
    let multiple = Math.ceil(value / step) * step;
    if (typeof node.exclusiveMinimum === 'number' && multiple <= node.exclusiveMinimum)
      multiple += step;
    value = multiple;
  }
  if (typeof node.exclusiveMaximum === 'number' && !integer && value >= node.exclusiveMaximum) {
    value = (Math.max(lower, node.exclusiveMaximum - 1) + node.exclusiveMaximum) / 2;
  }
  return value;
}

function isValid(node: JSONSchema, root: JSONSchema, value: unknown): boolean {
  try {
    return validateJson(withRootDefinitions(node, root), value).length === 0;
  } catch {
    return false;
  }
}
