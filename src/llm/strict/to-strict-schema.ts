import { isPlainObject } from '../../internal/is-plain-object';
import { SCHEMA_SHAPE_KEYWORDS, type JSONSchema } from '../../protocol/json-schema';
import { setOwn } from '../../protocol/merge-patch';
import { mapSubschemas } from '../../protocol/schema-walk';
import {
  ROOT_VALUE_KEY,
  isFreeForm,
  mergeAllOf,
  needsRootWrap,
  typesOf,
  valueTypesOf,
} from './strict-schema-rules';

/** String formats OpenAI's strict mode accepts; other formats move into the description. */
const SUPPORTED_FORMATS = new Set([
  'date-time',
  'time',
  'date',
  'duration',
  'email',
  'hostname',
  'ipv4',
  'ipv6',
  'uuid',
]);

/** Regex syntax strict mode's pattern engine rejects: lookahead/lookbehind and backreferences. */
const UNSUPPORTED_PATTERN_SYNTAX = /\(\?<?[=!]|\\[1-9]|\\k</;

/** Keywords this converter handles itself; every other keyword moves into the description. */
const HANDLED = new Set<string>([
  ...SCHEMA_SHAPE_KEYWORDS,
  'required',
  'additionalProperties',
  '$defs',
  'definitions',
  'description',
  'format',
  'pattern',
  '$schema',
  '$id',
  '$comment',
]);

interface ConvertContext {
  root: JSONSchema;
  /** True when the root was wrapped as `{ value }`, so `#` pointers shift one level down. */
  wrapped: boolean;
  /** The root `$defs` of the result; nested `$defs`/`definitions` are hoisted here. */
  definitions: Record<string, JSONSchema>;
}

/**
 * Converts a JSON Schema to the subset OpenAI's strict structured outputs accept: every object gets
 * `additionalProperties: false` and lists all properties as required, optional properties become
 * nullable, `oneOf` becomes `anyOf`, `const` an enum of one, `definitions` `$defs`, a string
 * `pattern` stays (decoding enforces it, e.g. the `^†` of a reference param) unless it uses regex
 * features strict mode rejects, other unsupported keywords (minLength, maximum, default, examples…)
 * move into `description` text, values
 * strict mode cannot describe (free-form objects, `{}`) become JSON-encoded strings, and a non-object
 * root is wrapped as `{ "value": … }`. `fromStrictSolution` undoes all of it on the reply.
 */
export function toStrictSchema(schema: JSONSchema): JSONSchema {
  const wrapped = needsRootWrap(schema);
  const definitionsOut: Record<string, JSONSchema> = {};
  const context: ConvertContext = { root: schema, wrapped, definitions: definitionsOut };
  const { $defs, definitions, ...body } = schema;
  hoistDefinitions({ $defs, definitions }, context);
  let result = convert(body, context);
  if (wrapped) {
    result = {
      type: 'object',
      properties: { [ROOT_VALUE_KEY]: result },
      required: [ROOT_VALUE_KEY],
      additionalProperties: false,
    };
  }
  if (Object.keys(definitionsOut).length > 0) result.$defs = definitionsOut;
  return result;
}

/** Converts `$defs`/`definitions` into the result's root `$defs` (the first definition of a name wins). */
function hoistDefinitions(node: JSONSchema, context: ConvertContext): void {
  for (const group of [node.definitions, node.$defs]) {
    if (!isPlainObject(group)) continue;
    for (const [name, definition] of Object.entries(group)) {
      if (name in context.definitions) continue;
      context.definitions[name] = {}; // reserve the name first: definitions may be recursive
      context.definitions[name] = convert(definition as JSONSchema, context);
    }
  }
}

function convert(node: JSONSchema | boolean, context: ConvertContext): JSONSchema {
  if (typeof node === 'boolean' || !isPlainObject(node)) {
    return node === false ? { type: 'null', description: 'No value is allowed here.' } : jsonText();
  }
  if (node.$defs !== undefined || node.definitions !== undefined) hoistDefinitions(node, context);
  if (node.allOf !== undefined) return convert(mergeAllOf(node, context.root), context);
  if (isFreeForm(node)) return withDescription(jsonText(), describe(node));

  const result: JSONSchema = {};
  const types = typesOf(node);
  const valueTypes = valueTypesOf(node);
  const nullable = types.includes('null');

  if (typeof node.$ref === 'string') {
    result.$ref = rewriteRef(node.$ref, context);
  } else if (node.anyOf !== undefined || node.oneOf !== undefined) {
    const { anyOf = [], oneOf = [] } = convertSubschemas(node, ['anyOf', 'oneOf'], context);
    result.anyOf = [...anyOf, ...oneOf];
    if (nullable && !result.anyOf.some(acceptsOnlyNull)) result.anyOf.push({ type: 'null' });
  } else if (node.const !== undefined || node.enum !== undefined) {
    const values = node.const !== undefined ? [node.const] : [...(node.enum ?? [])];
    if (nullable && !values.includes(null)) values.push(null);
    result.enum = values;
    const inferred = types.length > 0 ? types : literalTypes(values);
    if (inferred.length > 0) result.type = inferred.length === 1 ? inferred[0] : inferred;
  } else if (
    valueTypes.length > 1 &&
    valueTypes.some((type) => type === 'object' || type === 'array')
  ) {
    result.anyOf = valueTypes.map((type) => convert({ ...node, type }, context));
    if (nullable) result.anyOf.push({ type: 'null' });
  } else {
    const type = valueTypes[0];
    if (type === 'object') Object.assign(result, convertObject(node, context));
    else if (type === 'array') Object.assign(result, convertArray(node, context));
    if (types.length > 0) result.type = types.length === 1 ? types[0] : types;
    else if (type !== undefined) result.type = type;
    if (typeof node.format === 'string' && SUPPORTED_FORMATS.has(node.format)) {
      result.format = node.format;
    }
    if (keepsPattern(node)) result.pattern = node.pattern;
  }
  const description = describe(node);
  // Strict mode rejects keywords next to `$ref` ("$ref cannot have keywords {'description'}").
  if (result.$ref !== undefined && description !== undefined) {
    return { anyOf: [result], description };
  }
  return withDescription(result, description);
}

/**
 * The subschemas under `keywords` converted (schema-walk's mapSubschemas, so strict mode and every
 * other converter agree on what a subschema is); other keywords of `node` are left out. Each caller
 * then gives its keyword its strict form.
 */
function convertSubschemas(
  node: JSONSchema,
  keywords: readonly string[],
  context: ConvertContext,
): JSONSchema {
  const part: JSONSchema = {};
  for (const keyword of keywords) if (node[keyword] !== undefined) part[keyword] = node[keyword];
  return mapSubschemas(part, (child) => convert(child, context));
}

function convertObject(node: JSONSchema, context: ConvertContext): JSONSchema {
  const properties: Record<string, JSONSchema> = {};
  const required = new Set(node.required ?? []);
  const converted = convertSubschemas(node, ['properties'], context).properties ?? {};
  for (const [name, property] of Object.entries(converted)) {
    setOwn(properties, name, required.has(name) ? property : makeNullable(property));
  }
  return { properties, required: Object.keys(properties), additionalProperties: false };
}

function convertArray(node: JSONSchema, context: ConvertContext): JSONSchema {
  // `items` (a schema, or a draft-07 tuple) wins over `prefixItems`, as the reply conversion assumes.
  const keyword = node.items !== undefined ? 'items' : 'prefixItems';
  const items = convertSubschemas(node, [keyword], context)[keyword] as
    JSONSchema | JSONSchema[] | undefined;
  if (Array.isArray(items)) return { items: { anyOf: items } };
  return { items: items ?? convert(true, context) };
}

/** Makes a converted node also accept `null` (how strict mode expresses an optional property). */
function makeNullable(node: JSONSchema): JSONSchema {
  if (node.anyOf !== undefined) {
    if (!node.anyOf.some(acceptsOnlyNull)) node.anyOf = [...node.anyOf, { type: 'null' }];
    return node;
  }
  if (node.enum !== undefined) {
    if (!node.enum.includes(null)) node.enum = [...node.enum, null];
    if (node.type !== undefined) node.type = addNull(typesOf(node));
    return node;
  }
  if (node.$ref !== undefined || node.type === undefined) {
    const { description, ...rest } = node;
    return withDescription({ anyOf: [rest, { type: 'null' }] }, description);
  }
  node.type = addNull(typesOf(node));
  return node;
}

function addNull(types: string[]): string[] {
  return types.includes('null') ? types : [...types, 'null'];
}

function acceptsOnlyNull(node: JSONSchema): boolean {
  return node.type === 'null';
}

function literalTypes(values: unknown[]): string[] {
  const types = new Set<string>();
  for (const value of values) {
    if (value === null) types.add('null');
    else if (typeof value === 'string') types.add('string');
    else if (typeof value === 'boolean') types.add('boolean');
    else if (typeof value === 'number') types.add(Number.isInteger(value) ? 'integer' : 'number');
    else return [];
  }
  if (types.has('integer') && types.has('number')) types.delete('integer');
  return [...types];
}

function rewriteRef(ref: string, context: ConvertContext): string {
  let rewritten = ref.replace(/^#\/definitions\//, '#/$defs/');
  if (context.wrapped && !rewritten.startsWith('#/$defs/') && rewritten.startsWith('#')) {
    rewritten = `#/properties/${ROOT_VALUE_KEY}${rewritten.slice(1)}`;
  }
  return rewritten;
}

/**
 * True when the node's `pattern` stays in the strict schema: OpenAI's strict mode enforces `pattern`
 * on strings, but its regex engine has no lookaround or backreferences, so such patterns (and
 * patterns on non-string nodes) move into the description; validation still enforces them later.
 */
function keepsPattern(node: JSONSchema): boolean {
  if (typeof node.pattern !== 'string' || !typesOf(node).includes('string')) return false;
  const literal = node.enum !== undefined || node.const !== undefined;
  const combined = node.anyOf !== undefined || node.oneOf !== undefined || node.$ref !== undefined;
  return !literal && !combined && !UNSUPPORTED_PATTERN_SYNTAX.test(node.pattern);
}

/** A value strict mode cannot describe travels as JSON text; `fromStrictSolution` parses it back. */
function jsonText(): JSONSchema {
  return {
    type: 'string',
    description: 'A JSON-encoded value: write the JSON document as a string.',
  };
}

/** The node's description plus every keyword strict mode does not support, as readable text. */
function describe(node: JSONSchema): string | undefined {
  const moved: string[] = [];
  for (const [keyword, value] of Object.entries(node)) {
    if (HANDLED.has(keyword) || value === undefined) continue;
    if (keyword === 'prefixItems') continue;
    moved.push(`${keyword}: ${JSON.stringify(value)}`);
  }
  if (typeof node.format === 'string' && !SUPPORTED_FORMATS.has(node.format)) {
    moved.push(`format: ${JSON.stringify(node.format)}`);
  }
  if (node.pattern !== undefined && !keepsPattern(node)) {
    moved.push(`pattern: ${JSON.stringify(node.pattern)}`);
  }
  if (isPlainObject(node.additionalProperties)) {
    moved.push(`additionalProperties: ${JSON.stringify(node.additionalProperties)}`);
  }
  const parts = [typeof node.description === 'string' ? node.description : undefined];
  if (moved.length > 0) parts.push(`Constraints: ${moved.join('; ')}`);
  const text = parts.filter((part) => part !== undefined && part !== '').join('\n');
  return text === '' ? undefined : text;
}

function withDescription(node: JSONSchema, description: string | undefined): JSONSchema {
  if (description === undefined) return node;
  const existing = typeof node.description === 'string' ? node.description : undefined;
  return {
    ...node,
    description: existing && existing !== description ? `${description}\n${existing}` : description,
  };
}
