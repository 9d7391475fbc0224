import { escapePointerSegment, pointerSegments, valueAtPointer } from './json-pointer';
import type { JSONSchema } from './json-schema';
import {
  forEachSubschema,
  isSchemaObject,
  locationPointer,
  walkSchema,
  type SchemaNode,
} from './schema-walk';

/** A local `$ref` that cannot work: it points at nothing, or it is part of a cycle of `$ref`s. */
export interface LocalReferenceProblem {
  /** JSON Pointer of the schema holding the `$ref`, inside the checked schema (`''` = its root). */
  jsonPath: string;
  /** The `$ref` as written. */
  ref: string;
  /** What is wrong and how to fix it (no trailing period). */
  reason: string;
}

/** Applicators that apply their subschemas to the same value: a `$ref` loop through them never ends. */
const IN_PLACE_KEYWORDS = new Set(['allOf', 'anyOf', 'oneOf', 'not', 'if', 'then', 'else']);

/**
 * Finds the first broken local `$ref` (`#` or `#/json/pointer`) of `schema`: a dangling one (its target
 * does not exist) or one in a cycle that returns to the same value without reaching a schema that
 * checks it (`A → B → A`, or `A: { anyOf: [{ $ref: A }] }`), which validators overflow the stack on.
 * Refs under a nested `$id`, anchors and other documents are not checked. Iterative (no recursion).
 */
export function findLocalReferenceProblem(schema: JSONSchema): LocalReferenceProblem | undefined {
  return findLocalReferenceProblems(schema)[0];
}

/**
 * Every broken local `$ref` of `schema` (see {@link findLocalReferenceProblem}): each dangling one in
 * document order, then the first `$ref` cycle found, so `ideact validate` can list them all.
 */
export function findLocalReferenceProblems(schema: JSONSchema): LocalReferenceProblem[] {
  const nodes = new Map<string, JSONSchema>();
  const foreignBases: string[] = [];
  walkSchema(schema, (node, pointer) => {
    if (!isSchemaObject(node)) return;
    if (pointer !== '' && typeof node.$id === 'string') {
      foreignBases.push(pointer);
      return false;
    }
    nodes.set(pointer, node);
  });
  const problems: LocalReferenceProblem[] = [];
  const targets = new Map<string, string>();
  for (const [pointer, node] of nodes) {
    const ref = node.$ref;
    if (typeof ref !== 'string' || !isLocalPointer(ref)) continue;
    if (foreignBases.some((base) => pointer.startsWith(`${base}/`))) continue;
    const target = resolvePointer(schema, ref);
    if (target === undefined) {
      problems.push({
        jsonPath: pointer,
        ref,
        reason: `the $ref "${ref}" points at nothing in this schema; add the definition it names or fix the $ref`,
      });
      continue;
    }
    targets.set(pointer, target.pointer);
  }
  const cycle = findCycle(nodes, targets);
  if (cycle !== undefined) problems.push(cycle);
  return problems;
}

function isLocalPointer(ref: string): boolean {
  return ref === '#' || ref.startsWith('#/');
}

/** The node a `#/…` pointer names, with its canonical (walkSchema-style) pointer; undefined if absent. */
function resolvePointer(
  root: JSONSchema,
  ref: string,
): { node: SchemaNode; pointer: string } | undefined {
  const segments = pointerSegments(ref, true);
  if (segments === undefined) return undefined;
  const node = valueAtPointer(root, segments);
  if (typeof node !== 'boolean' && !isSchemaObject(node)) return undefined;
  return { node, pointer: segments.map((segment) => `/${escapePointerSegment(segment)}`).join('') };
}

/** The same-value successors of a node: its `$ref` target and its in-place applicators. */
function successors(
  pointer: string,
  node: JSONSchema,
  targets: ReadonlyMap<string, string>,
): string[] {
  const next: string[] = [];
  const target = targets.get(pointer);
  if (target !== undefined) next.push(target);
  forEachSubschema(node, (_child, location) => {
    if (IN_PLACE_KEYWORDS.has(location.keyword)) next.push(pointer + locationPointer(location));
  });
  return next;
}

/** Depth-first search (iterative) for a cycle of same-value edges; every such cycle has a `$ref`. */
function findCycle(
  nodes: ReadonlyMap<string, JSONSchema>,
  targets: ReadonlyMap<string, string>,
): LocalReferenceProblem | undefined {
  const done = new Set<string>();
  for (const start of targets.keys()) {
    if (done.has(start)) continue;
    const path: string[] = [];
    const onPath = new Set<string>();
    const stack: Array<{ pointer: string; next: string[] }> = [];
    const enter = (pointer: string): void => {
      const node = nodes.get(pointer);
      path.push(pointer);
      onPath.add(pointer);
      stack.push({ pointer, next: node === undefined ? [] : successors(pointer, node, targets) });
    };
    enter(start);
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!;
      const child = top.next.shift();
      if (child === undefined) {
        stack.pop();
        path.pop();
        onPath.delete(top.pointer);
        done.add(top.pointer);
        continue;
      }
      if (onPath.has(child)) return cycleProblem(path.slice(path.indexOf(child)), nodes);
      if (!done.has(child)) enter(child);
    }
  }
  return undefined;
}

function cycleProblem(
  cycle: string[],
  nodes: ReadonlyMap<string, JSONSchema>,
): LocalReferenceProblem {
  const first = cycle.find((pointer) => typeof nodes.get(pointer)?.$ref === 'string')!;
  const ref = nodes.get(first)!.$ref as string;
  const chain = [...cycle, cycle[0]!].map((pointer) => `#${pointer}`).join(' → ');
  return {
    jsonPath: first,
    ref,
    reason:
      `the $ref "${ref}" is part of a $ref cycle that never reaches a schema to check the value against ` +
      `(${chain}); make one schema on the cycle a real schema (e.g. an object with properties) instead of a $ref`,
  };
}
