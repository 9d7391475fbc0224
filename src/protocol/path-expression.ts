import { IdeactError } from '../errors/ideact-error';
import { InvalidOutputPathError } from '../errors/invalid-output-path.error';
import { UnresolvedReferenceError } from '../errors/unresolved-reference.error';
import { UnsafePathError } from '../errors/unsafe-path.error';

/** The reference sigil that starts a variable reference (R-VAR-1). */
export const REFERENCE_SIGIL = '†';

/** Path segments rejected everywhere (R-OUT-2). */
export const UNSAFE_SEGMENTS: ReadonlySet<string> = new Set([
  '__proto__',
  'prototype',
  'constructor',
]);

/** One segment of a path: an object key or an array index (`[0]`). */
export type PathSegment = string | number;

/** A parsed `†kind.path` reference. */
export interface ReferenceTerm {
  /** The data kind, e.g. `state`. */
  kind: string;
  /** The path inside that kind's data (empty = the whole data). */
  path: PathSegment[];
  /** The term as written, e.g. `†state.user.city`. */
  text: string;
}

/**
 * A parsed expression: alternatives joined by `||`, each a group joined by `&&` (`&&` binds
 * tighter, as in JavaScript): `a && b || c` = `[[a, b], [c]]`.
 */
export type Expression<T> = T[][];

/** True when `value` is a string written as a reference expression (starts with `†`). */
export function isReferenceExpression(value: unknown): value is string {
  return typeof value === 'string' && value.trimStart().startsWith(REFERENCE_SIGIL);
}

/**
 * Parses a reference expression such as `†state.user.city || †input.city`. Throws
 * `UnresolvedReferenceError` for malformed syntax and `UnsafePathError` for unsafe segments.
 */
export function parseReferenceExpression(
  text: string,
  instance?: string,
): Expression<ReferenceTerm> {
  const malformed = (reason: string): IdeactError =>
    new UnresolvedReferenceError({ reference: text, instance, reason });
  return splitExpression(text, malformed).map((group) =>
    group.map((operand) => {
      if (!operand.startsWith(REFERENCE_SIGIL)) {
        throw new UnresolvedReferenceError({
          reference: text,
          instance,
          reason: `"${operand}" is not a reference; every operand must start with ${REFERENCE_SIGIL}`,
        });
      }
      const segments = parseSegments(operand.slice(REFERENCE_SIGIL.length), text, malformed);
      const [kind, ...path] = segments;
      if (typeof kind !== 'string') {
        throw new UnresolvedReferenceError({
          reference: text,
          instance,
          reason: 'a reference starts with a data kind, e.g. †state.city',
        });
      }
      return { kind, path, text: operand };
    }),
  );
}

/** One place an output path writes to: the State (`kind: 'state'`) or another data kind. */
export interface OutputTarget {
  /** The data kind written: `state` unless the path says `†<kind>.…`. */
  kind: string;
  /** Object keys inside that kind's data (empty = replace/merge the whole data). */
  path: string[];
  /** The path as written. */
  text: string;
}

/**
 * Parses an `_outputPath` such as `weather.today`, `†state.weather && †log.last` or `a || b`. A leading
 * `†state.` (or `state.`) is optional; `†<kind>.path` targets another data kind. Throws
 * `InvalidOutputPathError` for malformed paths and `UnsafePathError` for unsafe segments.
 */
export function parseOutputPath(text: string): Expression<OutputTarget> {
  if (typeof text !== 'string') {
    throw new InvalidOutputPathError({ path: String(text), reason: 'it is not a string' });
  }
  return splitExpression(text, (reason) => new InvalidOutputPathError({ path: text, reason })).map(
    (group) =>
      group.map((operand) => {
        const explicitKind = operand.startsWith(REFERENCE_SIGIL);
        const body = explicitKind ? operand.slice(REFERENCE_SIGIL.length) : operand;
        const segments = parseSegments(
          body,
          text,
          (reason) => new InvalidOutputPathError({ path: text, reason }),
        );
        const keys = segments.map((segment) => {
          if (typeof segment === 'number') {
            throw new InvalidOutputPathError({
              path: text,
              reason: `array index [${segment}] cannot be written (merge patches replace whole arrays)`,
            });
          }
          return segment;
        });
        if (explicitKind) {
          const [kind, ...path] = keys;
          return { kind: kind as string, path, text: operand };
        }
        const path = keys[0] === 'state' ? keys.slice(1) : keys;
        return { kind: 'state', path, text: operand };
      }),
  );
}

function splitExpression(text: string, malformed: (reason: string) => IdeactError): string[][] {
  return text.split('||').map((alternative) =>
    alternative.split('&&').map((operand) => {
      const trimmed = operand.trim();
      if (trimmed === '') throw malformed('an operand of || or && is empty');
      return trimmed;
    }),
  );
}

const SEGMENT_PATTERN = /^([^.[\]]+)|^\.([^.[\]]+)|^\[(\d+)\]/;

function parseSegments(
  body: string,
  whole: string,
  malformed: (reason: string) => IdeactError,
): PathSegment[] {
  const segments: PathSegment[] = [];
  let rest = body;
  while (rest.length > 0) {
    const match = SEGMENT_PATTERN.exec(rest);
    if (match === null || (segments.length === 0 && match[1] === undefined)) {
      throw malformed(`cannot parse "${rest}" (write keys as .key and indexes as [0])`);
    }
    if (segments.length > 0 && match[1] !== undefined) {
      throw malformed(`cannot parse "${rest}" (write keys as .key and indexes as [0])`);
    }
    const key = match[1] ?? match[2];
    if (key !== undefined) {
      const trimmed = key.trim();
      if (trimmed !== key || trimmed === '') {
        throw malformed(`the key "${key}" has surrounding spaces`);
      }
      if (UNSAFE_SEGMENTS.has(key)) throw new UnsafePathError({ path: whole, segment: key });
      segments.push(key);
    } else {
      segments.push(Number(match[3]));
    }
    rest = rest.slice(match[0].length);
  }
  if (segments.length === 0) throw malformed('the path is empty');
  return segments;
}
