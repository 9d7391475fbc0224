import { isPlainObject } from '../internal/is-plain-object';

/**
 * JSON Pointers (RFC 6901) read and written once for every reader: local `$ref`s, ajv's error paths,
 * codegen warnings and the pointers schema-walk reports.
 */

/** One segment escaped for a pointer: `~` → `~0`, `/` → `~1`. @internal */
export function escapePointerSegment(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** One pointer segment unescaped: `~1` → `/`, `~0` → `~`. @internal */
export function unescapePointerSegment(segment: string): string {
  return segment.replace(/~1/g, '/').replace(/~0/g, '~');
}

/**
 * The unescaped segments of a pointer: a plain one (`/a/b~1c`, ajv's instance paths) or, with
 * `fragment`, a URI fragment (`#/$defs/a%20b`, a `$ref`), percent-decoded too. `#` and `#/` name
 * the root, as ajv resolves them. Undefined when it is not a pointer or not decodable. @internal
 */
export function pointerSegments(pointer: string, fragment: boolean): string[] | undefined {
  let text = pointer;
  if (fragment) {
    if (!text.startsWith('#')) return undefined;
    text = text.slice(1);
    if (text === '/') return [];
  }
  if (text === '') return [];
  if (!text.startsWith('/')) return undefined;
  const segments: string[] = [];
  for (const raw of text.slice(1).split('/')) {
    let segment = raw;
    if (fragment) {
      try {
        segment = decodeURIComponent(raw);
      } catch {
        return undefined;
      }
    }
    segments.push(unescapePointerSegment(segment));
  }
  return segments;
}

/**
 * The value `segments` lead to inside `document`, reading own properties of objects and array
 * indexes written canonically (`0`, `12`, not `01`); undefined when any step is missing. @internal
 */
export function valueAtPointer(document: unknown, segments: readonly string[]): unknown {
  let current: unknown = document;
  for (const segment of segments) {
    if (Array.isArray(current)) {
      if (!/^(0|[1-9]\d*)$/.test(segment)) return undefined;
      current = current[Number(segment)];
    } else if (isPlainObject(current) && Object.prototype.hasOwnProperty.call(current, segment)) {
      current = current[segment];
    } else {
      return undefined;
    }
  }
  return current;
}

/** The value a local `$ref` (`#`, `#/$defs/X`, any `#/…` pointer) names inside `document`, if any. @internal */
export function resolveLocalPointer(document: unknown, reference: string): unknown {
  const segments = pointerSegments(reference, true);
  return segments === undefined ? undefined : valueAtPointer(document, segments);
}
