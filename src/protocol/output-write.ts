import { InvalidOutputPathError } from '../errors/invalid-output-path.error';
import { InvalidOutputWriteError } from '../errors/invalid-output-write.error';
import { isPlainObject } from '../internal/is-plain-object';
import { dataView } from './data-view';
import { getOwn } from './merge-patch';
import type { Message } from './message';
import {
  DEFAULT_OUTPUT_METHOD,
  isOutputMethod,
  OUTPUT_METHODS,
  type OutputMethod,
} from './output-method';
import { parseOutputPath, REFERENCE_SIGIL } from './path-expression';

/**
 * One output write read from a data/state message (R-OUT-5): the value written, where, how and by
 * which Call. The message holds the value nested at `path`, as the patches of R-DATA-1 do.
 */
export interface OutputWrite {
  /** The data kind written (`state` for the State). */
  kind: string;
  /** Object keys inside that kind's data; empty = the whole data. */
  path: string[];
  /** The path as a reference, e.g. `†state.user.city` (what `_outputPath` holds). */
  text: string;
  /** How the value is written (R-OUT-3). */
  method: OutputMethod;
  /** The value written: the Call's output (or its error object), as the message holds it. */
  value: unknown;
  /** The Call that wrote it (`_call`), when recorded. */
  callId?: string;
}

/** The `_outputPath` a write message records: `†<kind>` plus `.key` per segment. @internal */
export function writePathText(kind: string, path: readonly string[]): string {
  return `${REFERENCE_SIGIL}${kind}${path.map((key) => `.${key}`).join('')}`;
}

/** Write messages never change (messages are values), so each is read once. */
const cache = new WeakMap<Message, OutputWrite | null>();

/**
 * The output write a message records (R-OUT-5), or undefined for a plain data patch (no
 * `_outputMethod` and no `_outputPath`: it merges as R-DATA-1 says, exactly as before output
 * methods). Throws `InvalidOutputPathError` / `UnsafePathError` for an `_outputPath` that is not one
 * path of the message's own kind, `InvalidOutputWriteError` for an unknown `_outputMethod` or a
 * message that holds no value at its path.
 */
export function readOutputWrite(message: Message): OutputWrite | undefined {
  const cached = cache.get(message);
  if (cached !== undefined) return cached ?? undefined;
  const write = parseWrite(message);
  cache.set(message, write ?? null);
  return write;
}

function parseWrite(message: Message): OutputWrite | undefined {
  const view = dataView(message);
  if (view === undefined) return undefined;
  const record = message as { _outputMethod?: unknown; _outputPath?: unknown; _call?: unknown };
  if (record._outputMethod === undefined && record._outputPath === undefined) return undefined;
  const callId = typeof record._call === 'string' ? record._call : undefined;
  const kind = view.kind;
  const pathText =
    record._outputPath ?? (kind === undefined ? REFERENCE_SIGIL : `${REFERENCE_SIGIL}${kind}`);
  if (typeof pathText !== 'string') {
    throw new InvalidOutputPathError({
      path: JSON.stringify(pathText) ?? String(pathText),
      reason: 'the _outputPath of a data message must be a string',
    });
  }
  const method = record._outputMethod ?? DEFAULT_OUTPUT_METHOD;
  if (!isOutputMethod(method)) {
    throw new InvalidOutputWriteError({
      path: pathText,
      method: typeof method === 'string' ? method : (JSON.stringify(method) ?? String(method)),
      callId,
      reason: `"${String(method)}" is not an output method (expected ${OUTPUT_METHODS.join(', ')})`,
    });
  }
  const alternatives = parseOutputPath(pathText);
  const target = alternatives.length === 1 ? alternatives[0] : undefined;
  if (target === undefined || target.length !== 1) {
    throw new InvalidOutputPathError({
      path: pathText,
      reason: 'a data message records the one path it wrote (no || or &&)',
    });
  }
  const { kind: targetKind, path } = target[0]!;
  if (targetKind !== kind) {
    throw new InvalidOutputPathError({
      path: pathText,
      reason: `a data message of kind "${kind ?? '(none)'}" records its path as ${writePathText(kind ?? '<kind>', path)}`,
    });
  }
  let value: unknown = view.data;
  for (const key of path) {
    if (!isPlainObject(value) || !Object.prototype.hasOwnProperty.call(value, key)) {
      throw new InvalidOutputWriteError({
        path: pathText,
        method,
        callId,
        reason:
          'the message holds no value at that path (its data must nest the value under the path)',
      });
    }
    value = getOwn(value, key);
  }
  const write: OutputWrite = {
    kind: targetKind,
    path,
    text: writePathText(targetKind, path),
    method,
    value,
  };
  if (callId !== undefined) write.callId = callId;
  return write;
}

/**
 * Why a data/state message's write metadata cannot be read (R-OUT-5), as the key at fault and a
 * reason; undefined when it can (or there is none). Idea and state files are checked with it, so a
 * broken write is reported at its JSON path when the file is read, not when a prompt is rendered.
 * @internal
 */
export function outputWriteProblem(message: Message): { key: string; reason: string } | undefined {
  const record = message as unknown as Record<string, unknown>;
  for (const key of ['_call', '_date', '_outputPath', '_outputMethod']) {
    if (record[key] !== undefined && typeof record[key] !== 'string') {
      return { key, reason: `expected a string, got ${JSON.stringify(record[key])}` };
    }
  }
  try {
    readOutputWrite(message);
    return undefined;
  } catch (error) {
    const key =
      InvalidOutputWriteError.isInstance(error) && record._outputMethod !== undefined
        ? '_outputMethod'
        : '_outputPath';
    return { key, reason: error instanceof Error ? error.message : String(error) };
  }
}
