import { isPlainObject } from '../internal/is-plain-object';
import { escapePointerSegment } from './json-pointer';
import type { JSONSchema } from './json-schema';
import { setOwn } from './merge-patch';

/**
 * The one JSON-Schema traversal of ideact: which keywords hold subschemas (and in what shape), a
 * shallow map over them, and a deep walk with JSON Pointers. Every converter (strict schemas,
 * codegen, Vessel building, reference alternatives, validation helpers) recurses through these, so
 * a keyword added here is handled everywhere and none is forgotten in one place only.
 */

/** Keywords whose value is one subschema (draft-07 and 2020-12). */
export const SINGLE_SUBSCHEMA_KEYWORDS = [
  'additionalProperties',
  'additionalItems',
  'unevaluatedProperties',
  'unevaluatedItems',
  'contains',
  'propertyNames',
  'not',
  'if',
  'then',
  'else',
  'contentSchema',
] as const;

/** Keywords whose value is an array of subschemas (`items` too when it is an array, draft-07 tuples). */
export const ARRAY_SUBSCHEMA_KEYWORDS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'] as const;

/**
 * Keywords whose value maps names to subschemas (draft-07 `dependencies` maps to a subschema or to a
 * list of property names; only the subschemas are visited).
 */
export const MAP_SUBSCHEMA_KEYWORDS = [
  'properties',
  'patternProperties',
  '$defs',
  'definitions',
  'dependentSchemas',
  'dependencies',
] as const;

/** A subschema position: `schema` or boolean, as JSON Schema allows (`true` = anything, `false` = nothing). */
export type SchemaNode = JSONSchema | boolean;

/** Where a subschema sits in its parent: the keyword, plus the name or index inside it. */
export interface SubschemaLocation {
  /** The keyword holding the subschema, e.g. `properties`, `anyOf`, `items`. */
  keyword: string;
  /** The property or definition name for map keywords (`properties.city` → `city`). */
  key?: string;
  /** The position for array keywords (`anyOf[2]` → 2). */
  index?: number;
}

/** True for a plain object (a schema object, not an array, not null). */
export function isSchemaObject(value: unknown): value is JSONSchema {
  return isPlainObject(value);
}

function isSchemaNode(value: unknown): value is SchemaNode {
  return typeof value === 'boolean' || isSchemaObject(value);
}

/**
 * Calls `visit` for every direct subschema of `schema`, in keyword order. Values of data keywords
 * (`const`, `enum`, `default`, `examples`) and `_`-prefixed meta-fields are never visited as schemas.
 */
export function forEachSubschema(
  schema: JSONSchema,
  visit: (child: SchemaNode, location: SubschemaLocation) => void,
): void {
  for (const keyword of MAP_SUBSCHEMA_KEYWORDS) {
    const group = schema[keyword];
    if (!isSchemaObject(group)) continue;
    for (const [key, child] of Object.entries(group))
      if (isSchemaNode(child)) visit(child, { keyword, key });
  }
  const items = schema.items;
  if (Array.isArray(items)) {
    items.forEach((child, index) => {
      if (isSchemaNode(child)) visit(child, { keyword: 'items', index });
    });
  } else if (isSchemaNode(items)) {
    visit(items, { keyword: 'items' });
  }
  for (const keyword of ARRAY_SUBSCHEMA_KEYWORDS) {
    const list = schema[keyword];
    if (!Array.isArray(list)) continue;
    list.forEach((child, index) => {
      if (isSchemaNode(child)) visit(child, { keyword, index });
    });
  }
  for (const keyword of SINGLE_SUBSCHEMA_KEYWORDS) {
    const child = schema[keyword];
    if (isSchemaNode(child)) visit(child, { keyword });
  }
}

/**
 * A shallow copy of `schema` whose direct subschemas are replaced by `map(child, location)`; every
 * other keyword, and every entry of a map or list that is not a schema (`dependencies: { a: ['b'] }`),
 * is kept as is. Converters recurse by calling themselves inside `map`.
 */
export function mapSubschemas(
  schema: JSONSchema,
  map: (child: SchemaNode, location: SubschemaLocation) => SchemaNode,
): JSONSchema {
  const copy: JSONSchema = { ...schema };
  const groups: Record<string, Record<string, unknown>> = {};
  const lists: Record<string, unknown[]> = {};
  forEachSubschema(schema, (child, location) => {
    const mapped = map(child, location);
    const { keyword, key, index } = location;
    if (key !== undefined) {
      setOwn(
        (groups[keyword] ??= { ...(schema[keyword] as Record<string, unknown>) }),
        key,
        mapped,
      );
    } else if (index !== undefined) {
      (lists[keyword] ??= [...(schema[keyword] as unknown[])])[index] = mapped;
    } else {
      copy[keyword] = mapped;
    }
  });
  for (const [keyword, group] of Object.entries(groups)) copy[keyword] = group;
  for (const [keyword, list] of Object.entries(lists)) copy[keyword] = list;
  return copy;
}

/** The JSON Pointer segment(s) of a location, escaped per RFC 6901. */
export function locationPointer(location: SubschemaLocation): string {
  let pointer = `/${escapePointerSegment(location.keyword)}`;
  if (location.key !== undefined) pointer += `/${escapePointerSegment(location.key)}`;
  if (location.index !== undefined) pointer += `/${location.index}`;
  return pointer;
}

/**
 * Visits `schema` and every subschema below it, depth first, parents before children, with the
 * JSON Pointer of each (`''` for the root). Returning `false` from `visit` skips that node's children.
 * Iterative, so a deeply nested schema cannot overflow the stack. `$ref`s are not followed.
 */
export function walkSchema(
  schema: SchemaNode,
  visit: (node: SchemaNode, pointer: string) => void | boolean,
): void {
  const stack: Array<{ node: SchemaNode; pointer: string }> = [{ node: schema, pointer: '' }];
  while (stack.length > 0) {
    const { node, pointer } = stack.pop()!;
    if (visit(node, pointer) === false || typeof node === 'boolean') continue;
    const children: Array<{ node: SchemaNode; pointer: string }> = [];
    forEachSubschema(node, (child, location) =>
      children.push({ node: child, pointer: pointer + locationPointer(location) }),
    );
    for (let index = children.length - 1; index >= 0; index--) stack.push(children[index]);
  }
}
