import { isPlainObject } from '../../internal/is-plain-object';
import type { JSONSchema } from '../../protocol/json-schema';
import { resolveLocalPointer } from '../../protocol/json-pointer';

/**
 * Rules shared by `toStrictSchema` and `fromStrictSolution`, so both directions agree on which nodes
 * were rewritten. @internal
 */

/** Property name that holds a non-object root solution (strict mode needs an object root). */
export const ROOT_VALUE_KEY = 'value';

/** Keywords that make a node a combinator or a literal rather than a plain typed node. */
const SHAPE_KEYWORDS = ['$ref', 'anyOf', 'oneOf', 'allOf', 'enum', 'const'] as const;

/** The one `isPlainObject` (a JSON object: not null, not an array), under the name the OpenAI reply parser imports. */
export const isRecord = isPlainObject;

/** The node's `type` as a list (empty when absent). */
export function typesOf(node: JSONSchema): string[] {
  if (typeof node.type === 'string') return [node.type];
  if (Array.isArray(node.type)) return node.type.filter((type) => typeof type === 'string');
  return [];
}

/** The non-null types of a node, inferring `object`/`array` from `properties`/`items`. */
export function valueTypesOf(node: JSONSchema): string[] {
  const types = typesOf(node).filter((type) => type !== 'null');
  if (types.length > 0) return types;
  if (node.type === undefined) {
    if (isPlainObject(node.properties)) return ['object'];
    if (node.items !== undefined) return ['array'];
  }
  return [];
}

function hasShapeKeyword(node: JSONSchema): boolean {
  return SHAPE_KEYWORDS.some((keyword) => node[keyword] !== undefined);
}

/**
 * True when the node accepts arbitrary JSON (no type, or an object without declared properties).
 * Strict mode cannot express that, so such values travel as JSON-encoded strings.
 */
export function isFreeForm(node: JSONSchema | boolean): boolean {
  if (node === true) return true;
  if (node === false || !isPlainObject(node) || hasShapeKeyword(node)) return false;
  const types = valueTypesOf(node);
  if (types.length === 0) return typesOf(node).length === 0; // `{ type: 'null' }` is not free-form
  if (types.length === 1 && types[0] === 'object') {
    const properties = isPlainObject(node.properties) ? Object.keys(node.properties) : [];
    return properties.length === 0 && node.additionalProperties !== false;
  }
  return false;
}

/** True when the node is an object schema strict mode can express as is (declared properties). */
export function isStrictObject(node: JSONSchema): boolean {
  if (hasShapeKeyword(node) || isFreeForm(node)) return false;
  const types = valueTypesOf(node);
  return types.length === 1 && types[0] === 'object' && typesOf(node).indexOf('null') < 0;
}

/** True when a root schema must be wrapped as `{ value: … }` (strict mode and json_object need an object root). */
export function needsRootWrap(root: JSONSchema): boolean {
  if (root.allOf !== undefined) return needsRootWrap(mergeAllOf(root, root));
  return !isStrictObject(root);
}

/** Resolves a local `$ref` (`#`, `#/$defs/X`, `#/definitions/X`, any JSON Pointer) against the root. */
export function resolveLocalRef(ref: string, root: JSONSchema): JSONSchema | undefined {
  const target = resolveLocalPointer(root, ref);
  return isPlainObject(target) ? (target as JSONSchema) : undefined;
}

/**
 * Merges `allOf` branches into one node (properties and required united, first keyword wins).
 * Good enough for the common "base object + extension" use; the original schema still validates.
 */
export function mergeAllOf(node: JSONSchema, root: JSONSchema): JSONSchema {
  const { allOf, ...rest } = node;
  const merged: JSONSchema = { ...rest };
  for (const branch of allOf ?? []) {
    const resolved =
      typeof branch.$ref === 'string' ? (resolveLocalRef(branch.$ref, root) ?? branch) : branch;
    const inner = resolved.allOf ? mergeAllOf(resolved, root) : resolved;
    for (const [keyword, value] of Object.entries(inner)) {
      if (keyword === 'properties' && isPlainObject(value)) {
        merged.properties = {
          ...(merged.properties ?? {}),
          ...(value as Record<string, JSONSchema>),
        };
      } else if (keyword === 'required' && Array.isArray(value)) {
        merged.required = [...new Set([...(merged.required ?? []), ...(value as string[])])];
      } else if (merged[keyword] === undefined) {
        merged[keyword] = value;
      }
    }
  }
  return merged;
}
