import type { ErrorObject } from 'ajv';
import {
  escapePointerSegment,
  pointerSegments,
  resolveLocalPointer,
  valueAtPointer,
} from './json-pointer';
import type { JSONSchema } from './json-schema';
import { withRootDefinitions } from './root-definitions';
import type { ValidationIssue } from '../errors/validation-issue';
import { isPlainObject } from '../internal/is-plain-object';

/**
 * Narrows ajv's `anyOf` errors to the branch the value meant, so a model reads the mistakes of the
 * tool it called and not those of every other tool (issue 14 item 6). @internal
 */

/** Validates a value against a derived schema; undefined when that schema cannot be compiled. */
export type Revalidate = (schema: JSONSchema, value: unknown) => ValidationIssue[] | undefined;

interface Discriminator {
  /** The property whose `const` tells the branches apart, e.g. `_tool`. */
  key: string;
  /** Each branch's constant, in branch order. */
  values: unknown[];
}

/** What one failed `anyOf` resolves to. */
type Narrowing =
  | { kind: 'branch'; index: number }
  | { kind: 'unknown'; key: string; value: unknown; values: unknown[] }
  | { kind: 'missing'; key: string; values: unknown[] };

/**
 * Turns ajv's errors into issues, replacing each failed `anyOf` whose branch is known by the issues
 * of that branch alone: a branch chosen by a discriminator constant (`_tool`), the only branch of a
 * one-branch `anyOf`, the typed value of a param that also accepts a `†reference`, or the non-null
 * side of `anyOf[value, null]`. A discriminator naming no branch becomes one issue listing the known
 * values (`unknown tool "x"; known tools: a, b`). Other errors pass through `toIssue` unchanged.
 * @internal
 */
export function narrowAnyOfErrors(
  errors: readonly ErrorObject[],
  root: JSONSchema,
  value: unknown,
  revalidate: Revalidate,
  toIssue: (error: ErrorObject) => ValidationIssue,
): ValidationIssue[] {
  const replaced = new Map<ErrorObject, ValidationIssue[]>();
  const consumed = new Set<ErrorObject>();
  const failures = errors
    .filter((error) => error.keyword === 'anyOf')
    .sort((a, b) => a.instancePath.length - b.instancePath.length);
  for (const failure of failures) {
    if (consumed.has(failure)) continue;
    const branches = resolveLocalPointer(root, failure.schemaPath);
    if (!Array.isArray(branches)) continue;
    const data = valueAtPointer(value, pointerSegments(failure.instancePath, false) ?? []);
    const narrowing = narrow(branches as JSONSchema[], root, data);
    if (narrowing === undefined) continue;
    const issues = issuesOf(narrowing, branches as JSONSchema[], root, data, revalidate);
    if (issues === undefined) continue;
    const path = failure.instancePath;
    const branchPath = failure.schemaPath;
    const nodePath = branchPath.slice(0, -'/anyOf'.length);
    const inside = errors.filter(
      (error) =>
        !consumed.has(error) &&
        isAtOrBelow(error.instancePath, path) &&
        (error === failure ||
          error.schemaPath.startsWith(`${branchPath}/`) ||
          !error.schemaPath.startsWith(`${nodePath}/`)),
    );
    for (const error of inside) consumed.add(error);
    replaced.set(
      inside[0] ?? failure,
      issues.map((issue) => ({ ...issue, path: path + issue.path })),
    );
  }
  const result: ValidationIssue[] = [];
  for (const error of errors) {
    const replacement = replaced.get(error);
    if (replacement !== undefined) result.push(...replacement);
    else if (!consumed.has(error)) result.push(toIssue(error));
  }
  return result;
}

function narrow(branches: JSONSchema[], root: JSONSchema, data: unknown): Narrowing | undefined {
  const discriminator = discriminatorOf(branches, root);
  if (discriminator !== undefined && isPlainObject(data)) {
    const { key, values } = discriminator;
    if (!(key in data)) return { kind: 'missing', key, values };
    const index = values.findIndex((candidate) => candidate === data[key]);
    if (index < 0) return { kind: 'unknown', key, value: data[key], values };
    return { kind: 'branch', index };
  }
  // A one-branch `anyOf` (the Vessel of a single Tool) can only have meant its branch.
  if (branches.length === 1) return { kind: 'branch', index: 0 };
  if (branches.length !== 2) return undefined;
  // `anyOf[value, †reference]` (R-VAR-1) and `anyOf[value, null]` (an optional output): a value
  // that is not a reference, or not null, was meant for the other branch.
  for (const [index, branch] of branches.entries()) {
    const other = branches[1 - index]!;
    if (isReferenceSchema(branch) && !isReferenceSchema(other))
      return { kind: 'branch', index: 1 - index };
    if (isNullSchema(branch) && !isNullSchema(other) && data !== null) {
      return { kind: 'branch', index: 1 - index };
    }
  }
  return undefined;
}

function issuesOf(
  narrowing: Narrowing,
  branches: JSONSchema[],
  root: JSONSchema,
  data: unknown,
  revalidate: Revalidate,
): ValidationIssue[] | undefined {
  const listed = (values: unknown[]): string =>
    values.map((value) => (typeof value === 'string' ? value : JSON.stringify(value))).join(', ');
  if (narrowing.kind === 'missing') {
    const what = narrowing.key === '_tool' ? 'known tools' : 'one of';
    return [
      {
        path: '',
        message: `must have required property '${narrowing.key}' (${what}: ${listed(narrowing.values)})`,
      },
    ];
  }
  if (narrowing.kind === 'unknown') {
    const written = JSON.stringify(narrowing.value);
    const message =
      narrowing.key === '_tool'
        ? `unknown tool ${written}; known tools: ${listed(narrowing.values)}`
        : `unknown value ${written}; must be one of: ${listed(narrowing.values)}`;
    return [{ path: `/${escapePointerSegment(narrowing.key)}`, message }];
  }
  const branch = branches[narrowing.index]!;
  return revalidate(withRootDefinitions(branch, root), data);
}

/**
 * The key every branch fixes to a distinct constant (`const` or a one-value `enum`), if any; with
 * one branch, its first constant (the `_tool` of a Vessel's only Tool), so a value naming another
 * constant is reported as unknown rather than as a bare `const` mismatch.
 */
function discriminatorOf(branches: JSONSchema[], root: JSONSchema): Discriminator | undefined {
  if (branches.length === 0) return undefined;
  const objects = branches.map((branch) => dereference(branch, root));
  const first = objects[0]?.properties;
  if (first === undefined) return undefined;
  for (const key of Object.keys(first)) {
    const values = objects.map((branch) => constantOf(branch.properties?.[key]));
    if (values.some((value) => value === undefined)) continue;
    if (new Set(values).size !== values.length) continue;
    return { key, values };
  }
  return undefined;
}

function constantOf(schema: JSONSchema | undefined): unknown {
  if (schema === undefined || typeof schema !== 'object') return undefined;
  if (schema.const !== undefined && typeof schema.const !== 'object') return schema.const;
  if (
    Array.isArray(schema.enum) &&
    schema.enum.length === 1 &&
    typeof schema.enum[0] !== 'object'
  ) {
    return schema.enum[0];
  }
  return undefined;
}

/** A `†reference` alternative (R-VAR-1): a string whose pattern requires the leading `†`. */
function isReferenceSchema(schema: JSONSchema): boolean {
  return (
    schema.type === 'string' &&
    typeof schema.pattern === 'string' &&
    schema.pattern.startsWith('^†')
  );
}

function isNullSchema(schema: JSONSchema): boolean {
  return (
    schema.type === 'null' &&
    Object.keys(schema).every((key) => key === 'type' || key === 'description')
  );
}

function dereference(schema: JSONSchema, root: JSONSchema): JSONSchema {
  if (typeof schema.$ref !== 'string') return schema;
  const target = resolveLocalPointer(root, schema.$ref);
  return isPlainObject(target) ? (target as JSONSchema) : schema;
}

function isAtOrBelow(path: string, parent: string): boolean {
  return path === parent || path.startsWith(`${parent}/`);
}
