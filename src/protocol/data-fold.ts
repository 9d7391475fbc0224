import { isPlainObject } from '../internal/is-plain-object';
import { dataView, type DataMessageView } from './data-view';
import type { JSONSchema } from './json-schema';
import { applyMergePatchInPlace, cloneJson, getOwn, setOwn } from './merge-patch';
import type { Message } from './message';
import { readOutputWrite, type OutputWrite } from './output-write';

/**
 * Where a write that finds nothing at its path starts from, instead of nothing: the rendered block
 * of an instance starts from the global value there (R-OUT-9). Returns the value (it is copied).
 */
export type WriteFallback = (path: readonly string[]) => unknown;

/** The merged payload, schema and description of one data identity. @internal */
export interface FoldedData {
  data: unknown;
  schema?: JSONSchema;
  description?: string;
}

/**
 * Folds the messages of one data identity, oldest first (R-DATA-1, R-OUT-6): a plain patch merges
 * at the root (RFC 7386; the first one is taken as is), a write applies its method at its path; the
 * last given schema / description wins. The fold starts at the newest `set` of the whole data, as
 * nothing older can show through it. Never mutates the messages. @internal
 */
export function foldMessages(messages: readonly Message[], fallback?: WriteFallback): FoldedData {
  let start = 0;
  for (let index = messages.length - 1; index > 0; index--) {
    const write = readOutputWrite(messages[index] as Message);
    if (write !== undefined && write.method === 'set' && write.path.length === 0) {
      start = index;
      break;
    }
  }
  const fold = new DataFold(fallback);
  messages.forEach((message, index) => {
    const view = dataView(message);
    if (view === undefined) return;
    if (index >= start) fold.add(message, view);
    fold.describe(view);
  });
  return fold.result();
}

/** The value at `path` inside `document`: own keys of objects only; undefined when absent. @internal */
export function valueAtPath(document: unknown, path: readonly string[]): unknown {
  let current = document;
  for (const key of path) {
    if (!isPlainObject(current)) return undefined;
    current = getOwn(current, key);
  }
  return current;
}

/**
 * Applies one write to `document`, which the caller owns (it is changed in place where it can be):
 * R-OUT-3's method at the write's path, creating missing parent objects (a parent that is not an
 * object is replaced by one, as a merge patch would). Returns the new document, and `applied: false`
 * when the write does not apply (push / concat onto a value that is not an array, concat of an
 * output that is not an array: R-OUT-7), leaving the document unchanged. `startFrom` gives the value
 * to start from when the path holds nothing (copied). @internal
 */
export function applyOutputWrite(
  document: unknown,
  write: OutputWrite,
  startFrom?: () => unknown,
): { document: unknown; applied: boolean } {
  let current = valueAtPath(document, write.path);
  if ((current === undefined || current === null) && startFrom !== undefined) {
    current = cloneJson(startFrom());
  }
  const next = writtenValue(current, write);
  if (next === NOT_APPLIED) return { document, applied: false };
  if (write.path.length === 0) return { document: next, applied: true };
  const root: Record<string, unknown> = isPlainObject(document) ? document : {};
  let parent = root;
  for (const key of write.path.slice(0, -1)) {
    let child = getOwn(parent, key);
    if (!isPlainObject(child)) {
      child = {};
      setOwn(parent, key, child);
    }
    parent = child as Record<string, unknown>;
  }
  setOwn(parent, write.path[write.path.length - 1] as string, next);
  return { document: root, applied: true };
}

const NOT_APPLIED = Symbol('not applied');

/** The value at the path after the write; `current` is owned and may be changed in place. */
function writtenValue(current: unknown, write: OutputWrite): unknown {
  const value = write.value;
  switch (write.method) {
    case 'set':
      return cloneJson(value);
    case 'merge':
      return applyMergePatchInPlace(isPlainObject(current) ? current : undefined, value);
    case 'assign': {
      if (!isPlainObject(value)) return cloneJson(value);
      const target = isPlainObject(current) ? current : {};
      for (const [key, item] of Object.entries(value)) setOwn(target, key, cloneJson(item));
      return target;
    }
    case 'push': {
      if (current === undefined || current === null) return [cloneJson(value)];
      if (!Array.isArray(current)) return NOT_APPLIED;
      current.push(cloneJson(value));
      return current;
    }
    case 'concat': {
      if (!Array.isArray(value)) return NOT_APPLIED;
      if (current === undefined || current === null) return cloneJson(value);
      if (!Array.isArray(current)) return NOT_APPLIED;
      for (const item of value) current.push(cloneJson(item));
      return current;
    }
  }
}

/** One identity's fold in progress (see {@link foldMessages}). */
class DataFold {
  private data: unknown = undefined;
  private started = false;
  private schema: JSONSchema | undefined;
  private description: string | undefined;
  /** Paths this fold `set` (a fallback never shows through them). */
  private readonly cuts: string[][] = [];

  constructor(private readonly fallback: WriteFallback | undefined) {}

  add(message: Message, view: DataMessageView): void {
    const write = readOutputWrite(message);
    if (write === undefined) {
      this.data = this.started
        ? applyMergePatchInPlace(this.data, view.data)
        : cloneJson(view.data);
    } else {
      const startFrom = this.fallbackFor(write);
      this.data = applyOutputWrite(this.data, write, startFrom).document;
      if (this.fallback !== undefined && write.method === 'set') this.cuts.push(write.path);
    }
    this.started = true;
  }

  describe(view: DataMessageView): void {
    if (view.schema !== undefined) this.schema = view.schema;
    if (view.description !== undefined) this.description = view.description;
  }

  result(): FoldedData {
    const folded: FoldedData = { data: this.data };
    if (this.schema !== undefined) folded.schema = this.schema;
    if (this.description !== undefined) folded.description = this.description;
    return folded;
  }

  /** A write other than `set` at a path no `set` of this fold covers may start from the fallback. */
  private fallbackFor(write: OutputWrite): (() => unknown) | undefined {
    const fallback = this.fallback;
    if (fallback === undefined || write.method === 'set') return undefined;
    const covered = this.cuts.some(
      (cut) =>
        cut.length <= write.path.length && cut.every((key, index) => write.path[index] === key),
    );
    return covered ? undefined : () => fallback(write.path);
  }
}
