import { escapePointerSegment } from './json-pointer';

/**
 * How deeply JSON data may nest where it enters ideact: an Activity's output, an Idea file. Deeper
 * values are rejected with a typed error naming the culprit, because formatting, merging, cloning and
 * resolving them recurse and would end in a raw `RangeError` (stack overflow) far from the cause.
 * Real data rarely goes past a few dozen levels.
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
