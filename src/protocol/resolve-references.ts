import { UnresolvedReferenceError } from '../errors/unresolved-reference.error';
import { viewOfKind } from './kind-view';
import { isPlainObject } from '../internal/is-plain-object';
import { cloneJson, getOwn } from './merge-patch';
import type { Message } from './message';
import {
  isReferenceExpression,
  parseReferenceExpression,
  type PathSegment,
  type ReferenceTerm,
} from './path-expression';

/**
 * Replaces every param string that is wholly a reference expression (R-VAR-1) — `†kind.path`,
 * `†a || †b` (first present), `†a && †b` (all present → the last) — with the value from the merged
 * data of that kind, as seen by `instance` (R-INST-1). Recurses into nested objects and arrays;
 * top-level `_` meta-fields (e.g. `_outputPath`) are left alone. Returns a new value; throws
 * `UnresolvedReferenceError` (or `UnsafePathError`) when a reference cannot be resolved.
 */
export function resolveReferences<T>(params: T, context: readonly Message[], instance?: string): T {
  return copyResolved(params, true, { context, instance }) as T;
}

/** What resolving one value reads: its context, and the merged views of the kinds it looked up. */
interface ResolveScope {
  context: readonly Message[];
  instance: string | undefined;
  /** Made on the first reference: most params hold none (once per Call, issue 28). */
  views?: Map<string, { data: unknown } | undefined>;
}

/** The merged data of `kind` as the scope's instance sees it, looked up once per kind. */
function lookupKind(scope: ResolveScope, kind: string): { data: unknown } | undefined {
  scope.views ??= new Map();
  if (!scope.views.has(kind)) {
    scope.views.set(kind, viewOfKind(scope.context, kind, scope.instance));
  }
  return scope.views.get(kind);
}

/** A copy of `value` (arrays and objects copied, never shared) with every reference replaced. */
function copyResolved(value: unknown, topLevel: boolean, scope: ResolveScope): unknown {
  if (isReferenceExpression(value)) {
    return evaluate(value, (kind) => lookupKind(scope, kind), scope.instance);
  }
  if (Array.isArray(value)) {
    const copy: unknown[] = new Array(value.length);
    for (let index = 0; index < value.length; index++) {
      copy[index] = copyResolved(value[index], false, scope);
    }
    return copy;
  }
  if (isPlainObject(value)) {
    const copy: Record<string, unknown> = {};
    // Its keys, not Object.entries' pairs: the fastest walk in every V8 tier.
    const keys = Object.keys(value);
    for (let index = 0; index < keys.length; index++) {
      const key = keys[index] as string;
      const item = value[key];
      const resolved = topLevel && key.startsWith('_') ? item : copyResolved(item, false, scope);
      if (key === '__proto__') {
        Object.defineProperty(copy, key, {
          value: resolved,
          enumerable: true,
          writable: true,
          configurable: true,
        });
      } else copy[key] = resolved;
    }
    return copy;
  }
  return value;
}

function evaluate(
  text: string,
  lookup: (kind: string) => { data: unknown } | undefined,
  instance: string | undefined,
): unknown {
  const expression = parseReferenceExpression(text.trim(), instance);
  const reasons: string[] = [];
  for (const group of expression) {
    let value: unknown;
    let complete = true;
    for (const term of group) {
      const found = valueOf(term, lookup);
      if (found.present) value = found.value;
      else {
        complete = false;
        reasons.push(found.reason);
        break;
      }
    }
    if (complete) return cloneJson(value);
  }
  throw new UnresolvedReferenceError({ reference: text, instance, reason: reasons.join('; ') });
}

function valueOf(
  term: ReferenceTerm,
  lookup: (kind: string) => { data: unknown } | undefined,
): { present: true; value: unknown } | { present: false; reason: string } {
  const view = lookup(term.kind);
  if (view === undefined) {
    return { present: false, reason: `no data message of kind "${term.kind}"` };
  }
  let current = view.data;
  for (let index = 0; index < term.path.length; index++) {
    current = step(current, term.path[index] as PathSegment);
    if (current === undefined || current === null) {
      return {
        present: false,
        reason: `${term.text}: ¶${term.kind} has no value at "${formatPath(term.path.slice(0, index + 1))}"`,
      };
    }
  }
  if (current === undefined || current === null) {
    return { present: false, reason: `${term.text}: ¶${term.kind} is empty` };
  }
  return { present: true, value: current };
}

function step(value: unknown, segment: PathSegment): unknown {
  if (typeof segment === 'number') return Array.isArray(value) ? value[segment] : undefined;
  // `.0` on an array is read as `[0]` (models often write it that way).
  if (Array.isArray(value)) return /^\d+$/.test(segment) ? value[Number(segment)] : undefined;
  return isPlainObject(value) ? getOwn(value, segment) : undefined;
}

function formatPath(path: PathSegment[]): string {
  return path
    .map((segment, index) =>
      typeof segment === 'number' ? `[${segment}]` : index === 0 ? segment : `.${segment}`,
    )
    .join('');
}
