import type { ValidationIssue } from '../errors/validation-issue';
import { escapePointerSegment } from './json-pointer';

/**
 * How deeply JSON data may nest where it enters ideact: a model's reply, an Activity's output, an
 * Idea file. Deeper values are rejected with a typed error naming the culprit, because formatting,
 * merging, cloning and resolving them recurse and would end in a raw `RangeError` (stack overflow)
 * far from the cause. Real data rarely goes past a few dozen levels.
 */
export const MAX_JSON_DEPTH = 256;

/** Where a value first nests too deeply: a JSON Pointer (abbreviated when long) and the depth limit. */
export interface JsonDepthViolation {
  /** JSON Pointer of the first object or array past the limit; long pointers keep their ends. */
  jsonPath: string;
  /** The limit that was exceeded. */
  maxDepth: number;
}

/**
 * Finds the first object or array of `value` nested more than `maxDepth` levels deep (the root
 * object or array is level 1), without recursion, so it is safe on any input. Returns undefined when
 * the value is within the limit. Cycles are not followed (JSON cannot hold them).
 */
export function findJsonDepthViolation(
  value: unknown,
  maxDepth: number = MAX_JSON_DEPTH,
): JsonDepthViolation | undefined {
  // The common case — well within the limit — allocates nothing; only a value that nests too deep
  // (or holds a cycle) is walked again to find and name the place.
  if (!nestsDeeperThan(value, maxDepth)) return undefined;
  return locateDepthViolation(value, maxDepth);
}

/**
 * True when `value` has an object or array more than `remaining` levels deep. Recursive, but never
 * deeper than `remaining + 1` frames (a few hundred), so it is safe on any input; allocation-free.
 */
function nestsDeeperThan(value: unknown, remaining: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (remaining === 0) return true;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      if (nestsDeeperThan(value[index], remaining - 1)) return true;
    }
    return false;
  }
  for (const key in value) {
    if (!Object.prototype.hasOwnProperty.call(value, key)) continue;
    if (nestsDeeperThan((value as Record<string, unknown>)[key], remaining - 1)) return true;
  }
  return false;
}

/** The first object or array past `maxDepth`, walked iteratively with its path (cycles not followed). */
function locateDepthViolation(value: unknown, maxDepth: number): JsonDepthViolation | undefined {
  interface Frame {
    value: object;
    depth: number;
    parent?: Frame;
    key?: string;
    /** Set once the children were pushed: the frame is left when it is popped again. */
    entered?: boolean;
  }
  if (!isContainer(value)) return undefined;
  const onPath = new Set<object>();
  const stack: Frame[] = [{ value, depth: 1 }];
  while (stack.length > 0) {
    const frame = stack[stack.length - 1]!;
    if (frame.entered === true) {
      stack.pop();
      onPath.delete(frame.value);
      continue;
    }
    if (frame.depth > maxDepth) return { jsonPath: pointerOf(frame), maxDepth };
    frame.entered = true;
    onPath.add(frame.value);
    const entries: Array<[string, unknown]> = Array.isArray(frame.value)
      ? frame.value.map((item, index) => [String(index), item])
      : Object.entries(frame.value);
    for (let index = entries.length - 1; index >= 0; index--) {
      const [key, child] = entries[index]!;
      if (isContainer(child) && !onPath.has(child)) {
        stack.push({ value: child, depth: frame.depth + 1, parent: frame, key });
      }
    }
  }
  return undefined;
}

/**
 * The validation issue of a value nested more than MAX_JSON_DEPTH levels deep (undefined when it is
 * not), worded for the repair loop (R-REQ-3): a model's reply that deep goes back for repair, named by
 * its JSON path and the limit, before anything recursive (validation, conversion, cloning, saving)
 * touches it.
 */
export function jsonDepthIssue(value: unknown): ValidationIssue | undefined {
  const violation = findJsonDepthViolation(value);
  if (violation === undefined) return undefined;
  return {
    path: violation.jsonPath,
    message: `is nested more than MAX_JSON_DEPTH (${MAX_JSON_DEPTH}) levels deep; write flatter JSON`,
  };
}

function isContainer(value: unknown): value is object {
  return typeof value === 'object' && value !== null;
}

/** The frame's JSON Pointer; past 12 segments only the first 6 and the last 3 are kept. */
function pointerOf(frame: { parent?: unknown; key?: string }): string {
  const keys: string[] = [];
  for (
    let current = frame as { parent?: unknown; key?: string } | undefined;
    current?.key !== undefined;
  ) {
    keys.push(escapePointerSegment(current.key));
    current = current.parent as { parent?: unknown; key?: string } | undefined;
  }
  keys.reverse();
  if (keys.length <= 12) return keys.map((key) => `/${key}`).join('');
  const head = keys
    .slice(0, 6)
    .map((key) => `/${key}`)
    .join('');
  const tail = keys
    .slice(-3)
    .map((key) => `/${key}`)
    .join('');
  return `${head}/…(${keys.length - 9} more)…${tail}`;
}
