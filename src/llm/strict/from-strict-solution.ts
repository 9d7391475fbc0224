import { isPlainObject } from '../../internal/is-plain-object';
import type { JSONSchema } from '../../protocol/json-schema';
import { compileValidator, type JsonValidator } from '../../protocol/json-validation';
import { withRootDefinitions } from '../../protocol/root-definitions';
import {
  ROOT_VALUE_KEY,
  isFreeForm,
  mergeAllOf,
  needsRootWrap,
  resolveLocalRef,
  valueTypesOf,
} from './strict-schema-rules';

/**
 * Converts a reply produced under `toStrictSchema(originalSchema)` back to the original shape:
 * unwraps a `{ value }` root, drops `null`s that exist only because optional properties were made
 * nullable (a `null` the original schema accepts is kept), and parses JSON-encoded free-form values.
 * Never throws; the caller validates the result against the original schema.
 */
export function fromStrictSolution(solution: unknown, originalSchema: JSONSchema): unknown {
  let value = solution;
  if (needsRootWrap(originalSchema)) {
    if (!isPlainObject(value) || !(ROOT_VALUE_KEY in value)) return value;
    value = value[ROOT_VALUE_KEY];
  }
  return restore(value, originalSchema, originalSchema, 0);
}

const MAX_DEPTH = 200;

// Walks the reply VALUE alongside its schema (one branch per value), not every subschema, so it does
// not go through schema-walk's traversal.
function restore(
  value: unknown,
  node: JSONSchema | boolean,
  root: JSONSchema,
  depth: number,
): unknown {
  if (depth > MAX_DEPTH || typeof node === 'boolean' || !isPlainObject(node)) {
    return node === true ? parseJsonText(value) : value;
  }
  if (typeof node.$ref === 'string') {
    const target = resolveLocalRef(node.$ref, root);
    return target === undefined ? value : restore(value, target, root, depth + 1);
  }
  if (node.allOf !== undefined) return restore(value, mergeAllOf(node, root), root, depth + 1);
  if (isFreeForm(node)) return parseJsonText(value);
  const branches = [...(node.anyOf ?? []), ...(node.oneOf ?? [])];
  if (branches.length > 0) return restoreBranch(value, branches, root, depth);

  const types = valueTypesOf(node);
  if (types.length > 1 && types.some((type) => type === 'object' || type === 'array')) {
    return restoreBranch(value, typeBranches(node, types), root, depth);
  }
  if (isPlainObject(value) && isPlainObject(node.properties)) {
    const required = new Set(node.required ?? []);
    const result: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      const property = node.properties[key];
      if (property === undefined) {
        result[key] = item;
        continue;
      }
      if (item === null && !required.has(key) && !acceptsNull(property, root)) continue;
      result[key] = restore(item, property, root, depth + 1);
    }
    return result;
  }
  if (Array.isArray(value)) {
    const items = node.items ?? node.prefixItems;
    if (Array.isArray(items)) {
      return value.map((item) => restoreBranch(item, items as JSONSchema[], root, depth));
    }
    return value.map((item) =>
      restore(item, (items as JSONSchema | boolean | undefined) ?? true, root, depth + 1),
    );
  }
  return value;
}

/** Picks the first branch whose restored value validates; falls back to the first branch. */
function restoreBranch(
  value: unknown,
  branches: JSONSchema[],
  root: JSONSchema,
  depth: number,
): unknown {
  let fallback: unknown = value;
  let fallbackSet = false;
  for (const branch of branches) {
    const candidate = restore(value, branch, root, depth + 1);
    if (isValid(branch, root, candidate)) return candidate;
    if (!fallbackSet && sameKind(value, branch, root)) {
      fallback = candidate;
      fallbackSet = true;
    }
  }
  return fallback;
}

function sameKind(value: unknown, branch: JSONSchema, root: JSONSchema): boolean {
  const resolved = typeof branch.$ref === 'string' ? resolveLocalRef(branch.$ref, root) : branch;
  if (resolved === undefined) return false;
  const types = valueTypesOf(resolved);
  if (Array.isArray(value)) return types.includes('array');
  if (isPlainObject(value)) return types.includes('object');
  return false;
}

/** A node of several types as one branch per type, kept per node (their validators are cached by object). */
const branchesByNode = new WeakMap<JSONSchema, JSONSchema[]>();

function typeBranches(node: JSONSchema, types: string[]): JSONSchema[] {
  let branches = branchesByNode.get(node);
  if (branches === undefined) {
    branches = types.map((type) => ({ ...node, type }));
    branchesByNode.set(node, branches);
  }
  return branches;
}

function acceptsNull(schema: JSONSchema, root: JSONSchema): boolean {
  return isValid(schema, root, null);
}

/**
 * Validators of the subschemas tried here, by root and subschema object: a reply is converted on
 * every request (an agent's Vessel, every turn), and keying ajv's cache by the schema's text would
 * stringify each branch each time. Only the choice of a branch depends on them; the request pipeline
 * validates the converted value against the original schema afterwards, whatever was chosen.
 */
const validators = new WeakMap<JSONSchema, WeakMap<JSONSchema, JsonValidator | null>>();

function isValid(schema: JSONSchema | boolean, root: JSONSchema, value: unknown): boolean {
  if (typeof schema === 'boolean') return schema;
  let byNode = validators.get(root);
  if (byNode === undefined) {
    byNode = new WeakMap();
    validators.set(root, byNode);
  }
  let validator = byNode.get(schema);
  if (validator === undefined) {
    try {
      validator = compileValidator(withRootDefinitions(schema, root));
    } catch {
      validator = null; // an invalid subschema accepts nothing here; the pipeline reports it
    }
    byNode.set(schema, validator);
  }
  return validator !== null && validator(value).length === 0;
}

function parseJsonText(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}
