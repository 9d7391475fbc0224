/**
 * Paths into a run's output for the `equals`, `contains` and `matches` scorers: `title`,
 * `tracks[0].kind`, `$.notes`, `["odd key"]`; empty (or `$`) is the whole output.
 */

/** One step of a path: an object key or an array index. */
export type OutputPathSegment = string | number;

const UNSAFE = new Set(['__proto__', 'prototype', 'constructor']);
const SEGMENT = /^(?:\.?([A-Za-z_$][\w$-]*)|\[(\d+)\]|\["((?:[^"\\]|\\.)*)"\])/;

/** The segments of `path`, or the reason it is malformed. */
export function parseOutputPath(path: string): OutputPathSegment[] | { error: string } {
  let rest = path.trim();
  if (rest.startsWith('$')) rest = rest.slice(1);
  const segments: OutputPathSegment[] = [];
  while (rest.length > 0) {
    const match = SEGMENT.exec(rest);
    if (match === null) {
      return { error: `"${path}" is not a path (write e.g. title, tracks[0].kind or $["a key"])` };
    }
    const segment =
      match[2] !== undefined
        ? Number(match[2])
        : match[3] !== undefined
          ? (JSON.parse(`"${match[3]}"`) as string)
          : (match[1] as string);
    if (typeof segment === 'string' && UNSAFE.has(segment)) {
      return { error: `"${path}" uses the segment "${segment}", which is not allowed` };
    }
    segments.push(segment);
    rest = rest.slice(match[0].length);
  }
  return segments;
}

/** The value at `segments` of `value`; `found: false` when a step is missing. */
export function valueAtPath(
  value: unknown,
  segments: readonly OutputPathSegment[],
): { found: boolean; value: unknown } {
  let current = value;
  for (const segment of segments) {
    if (typeof segment === 'number') {
      if (!Array.isArray(current) || segment >= current.length)
        return { found: false, value: undefined };
      current = current[segment];
    } else {
      if (typeof current !== 'object' || current === null || Array.isArray(current)) {
        return { found: false, value: undefined };
      }
      if (!Object.prototype.hasOwnProperty.call(current, segment)) {
        return { found: false, value: undefined };
      }
      current = (current as Record<string, unknown>)[segment];
    }
  }
  return { found: true, value: current };
}

/** `segments` written back as a path (`tracks[0].kind`; `output` for the whole output). */
export function formatOutputPath(segments: readonly OutputPathSegment[]): string {
  if (segments.length === 0) return 'output';
  return segments
    .map((segment, index) =>
      typeof segment === 'number'
        ? `[${segment}]`
        : /^[A-Za-z_$][\w$-]*$/.test(segment)
          ? `${index === 0 ? '' : '.'}${segment}`
          : `[${JSON.stringify(segment)}]`,
    )
    .join('');
}
