import type { Call } from './call';
import { isPlainObject } from '../internal/is-plain-object';
import {
  isReferenceExpression,
  parseOutputPath,
  parseReferenceExpression,
  type OutputTarget,
  type PathSegment,
} from './path-expression';

/**
 * Dataflow of one solution (R-FLOW-1..4): which Calls read (`†`) what other Calls of the same
 * solution write (`_outputPath`), so the Actor starts each Call once its inputs exist, in parallel
 * otherwise, and fails cycles. Pure: it reads the Calls as written.
 */

/** One `&&` group of a reference expression and the Calls whose writes it waits for. */
export interface DependencyGroup {
  /** The group as written, e.g. `†state.a && †state.b`. */
  text: string;
  /** Indices of the Calls (of the same solution) that write a path this group reads. */
  producers: number[];
}

/** One reference expression in a Call's params: its `||` alternatives, in order. */
export interface DependencyExpression {
  /** The expression as written. */
  text: string;
  /** The alternatives (`||`), each an `&&` group. */
  groups: DependencyGroup[];
}

/** What {@link callDependencies} needs besides the Calls. */
export interface DependencyOptions {
  /** The instance of Calls that set no `_instance` (R-INST-1). */
  instance?: string;
  /** The output path a Call's Tool fixes (`_outputPath: { const }`), which the Call does not repeat. */
  fixedOutputPath?: (call: Call) => string | undefined;
}

/** What one Call of a solution reads from the others. */
export interface CallDependencies {
  /** Every reference expression in its params. */
  expressions: DependencyExpression[];
  /** Every Call it waits for (the union of the groups' producers), ascending. */
  dependsOn: number[];
}

/**
 * The dependencies of each Call of one solution: a reference term depends on every other Call whose
 * `_outputPath` (any alternative and fan-out target) writes the same data kind at an overlapping path
 * (one a prefix of the other) for the same instance (a global write reaches every instance).
 * Malformed references and output paths are left out: executing the Call reports them.
 */
export function callDependencies(
  calls: readonly Call[],
  options: DependencyOptions = {},
): CallDependencies[] {
  const writes = calls.map((call) => writeTargets(call, options.fixedOutputPath?.(call)));
  const instances = calls.map((call) =>
    typeof call._instance === 'string' ? call._instance : options.instance,
  );
  return calls.map((call, index) => {
    const expressions: DependencyExpression[] = [];
    const all = new Set<number>();
    for (const text of referenceTexts(call)) {
      let parsed;
      try {
        parsed = parseReferenceExpression(text.trim(), instances[index]);
      } catch {
        continue;
      }
      const groups = parsed.map((group) => {
        const producers = new Set<number>();
        for (const term of group) {
          writes.forEach((targets, writer) => {
            if (writer === index) return;
            const writerInstance = instances[writer];
            if (writerInstance !== undefined && writerInstance !== instances[index]) return;
            if (targets.some((target) => overlaps(term.kind, term.path, target))) {
              producers.add(writer);
            }
          });
        }
        for (const producer of producers) all.add(producer);
        return {
          text: group.map((term) => term.text).join(' && '),
          producers: [...producers].sort((left, right) => left - right),
        };
      });
      expressions.push({ text, groups });
    }
    return { expressions, dependsOn: [...all].sort((left, right) => left - right) };
  });
}

/**
 * The dependency cycles among `dependencies` (strongly connected components of more than one Call),
 * each as the Call indices in the order of one walk around it. Calls that only wait for a cycle are
 * not in it (they fail later, as dependants of a failed Call).
 */
export function dependencyCycles(dependencies: readonly CallDependencies[]): number[][] {
  // Tarjan's algorithm, iterative over the small graph of one solution.
  const indexOf = new Map<number, number>();
  const lowLink = new Map<number, number>();
  const onStack = new Set<number>();
  const stack: number[] = [];
  const cycles: number[][] = [];
  let counter = 0;
  const visit = (node: number): void => {
    indexOf.set(node, counter);
    lowLink.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of dependencies[node]?.dependsOn ?? []) {
      if (!indexOf.has(next)) {
        visit(next);
        lowLink.set(node, Math.min(lowLink.get(node) as number, lowLink.get(next) as number));
      } else if (onStack.has(next)) {
        lowLink.set(node, Math.min(lowLink.get(node) as number, indexOf.get(next) as number));
      }
    }
    if (lowLink.get(node) === indexOf.get(node)) {
      const component: number[] = [];
      let member: number;
      do {
        member = stack.pop() as number;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1) cycles.push(orderCycle(component, dependencies));
    }
  };
  dependencies.forEach((_, node) => {
    if (!indexOf.has(node)) visit(node);
  });
  return cycles;
}

/** Orders a component as a walk: from its smallest index along dependency edges inside it. */
function orderCycle(component: number[], dependencies: readonly CallDependencies[]): number[] {
  const members = new Set(component);
  const start = Math.min(...component);
  const walk = [start];
  const seen = new Set(walk);
  let current = start;
  for (;;) {
    const next = (dependencies[current]?.dependsOn ?? []).find(
      (candidate) => members.has(candidate) && !seen.has(candidate),
    );
    if (next === undefined) break;
    walk.push(next);
    seen.add(next);
    current = next;
  }
  // Members the walk did not reach (a component with branches) follow in index order.
  for (const member of [...component].sort((left, right) => left - right)) {
    if (!seen.has(member)) walk.push(member);
  }
  return walk;
}

/** Every target of a Call's output path (all alternatives); none when it has none or it is malformed. */
function writeTargets(call: Call, fixed: string | undefined): OutputTarget[] {
  const path = fixed ?? call._outputPath;
  if (typeof path !== 'string' || path === '') return [];
  try {
    return parseOutputPath(path).flat();
  } catch {
    return [];
  }
}

/** Every reference expression among the Call's params (nested values too; `_` meta-fields skipped). */
function referenceTexts(call: Call): string[] {
  const found: string[] = [];
  const walk = (value: unknown): void => {
    if (isReferenceExpression(value)) found.push(value);
    else if (Array.isArray(value)) value.forEach(walk);
    else if (isPlainObject(value)) Object.values(value).forEach(walk);
  };
  for (const [key, value] of Object.entries(call)) if (!key.startsWith('_')) walk(value);
  return found;
}

/** Same kind, and one path is a prefix of the other (array indexes compared as keys). */
function overlaps(kind: string, path: readonly PathSegment[], target: OutputTarget): boolean {
  if (kind !== target.kind) return false;
  const length = Math.min(path.length, target.path.length);
  for (let index = 0; index < length; index++) {
    if (String(path[index]) !== target.path[index]) return false;
  }
  return true;
}

/**
 * True when some Call's params hold a `†` reference (otherwise no Call can depend on another). Asked
 * for every Vessel, so it stops at the first reference and allocates no pairs or closures (issue 28).
 */
export function holdsReferences(calls: readonly Call[]): boolean {
  for (let index = 0; index < calls.length; index++) {
    const call = calls[index] as Record<string, unknown>;
    const keys = Object.keys(call);
    for (let position = 0; position < keys.length; position++) {
      const key = keys[position] as string;
      if (!key.startsWith('_') && containsReference(call[key])) return true;
    }
  }
  return false;
}

/** True when `value` is a reference expression or holds one (in nested arrays and objects). */
function containsReference(value: unknown): boolean {
  if (isReferenceExpression(value)) return true;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      if (containsReference(value[index])) return true;
    }
    return false;
  }
  if (isPlainObject(value)) {
    const keys = Object.keys(value);
    for (let index = 0; index < keys.length; index++) {
      if (containsReference(value[keys[index] as string])) return true;
    }
  }
  return false;
}
