import type { AgentState } from './agent-state';

/**
 * Per state, how many times code that may edit it in place ran (a person between `step()`s, a
 * custom step module, `onStep`, a `stopWhen` condition). A per-state cache checked in full at the
 * current count trusts what it holds and checks only what was appended (issue 28: a full check per
 * turn made a turn's cost grow with the run's length).
 */
const editCounts = new WeakMap<AgentState, number>();
/** States that code which may edit them in place is running on now (a custom step module). */
const editing = new WeakSet<AgentState>();

/**
 * The state's edit count: a cache checked at this count needs only an O(1) check of its tail. NaN
 * (equal to nothing) while a custom module runs, so every read then checks in full. @internal
 */
export function editCount(state: AgentState): number {
  return editing.has(state) ? Number.NaN : (editCounts.get(state) ?? 0);
}

/** Records that code which may have edited `state` in place ran: caches check it in full again. @internal */
export function mayHaveEdited(state: AgentState): void {
  editCounts.set(state, (editCounts.get(state) ?? 0) + 1);
}

/**
 * Runs `work` (a custom step module) with every cache of `state` checked in full on each read,
 * then records that it may have edited the state. @internal
 */
export async function whileEditing<T>(state: AgentState, work: () => Promise<T>): Promise<T> {
  editing.add(state);
  try {
    return await work();
  } finally {
    editing.delete(state);
    mayHaveEdited(state);
  }
}

/** Prototypes of the built-in step modules, which only append nodes and never edit one in place. */
const appendOnlyModules = new WeakSet<object>();

/** Declares a built-in step module class append-only (its subclasses are not: they may edit). @internal */
export function declareAppendOnly(moduleClass: { prototype: object }): void {
  appendOnlyModules.add(moduleClass.prototype);
}

/** True when `module` is an instance of a built-in append-only module class itself. @internal */
export function isAppendOnly(module: object): boolean {
  return appendOnlyModules.has(Object.getPrototypeOf(module) as object);
}
