import { promises as fs } from 'node:fs';
import { InvalidAgentStateError } from '../errors/invalid-agent-state.error';
import { isRunStatus, type JournalEntry } from '../runs/run-store';
import { directoryInPlaceOf, isDirectoryError } from './directory-in-place';

/** The journal lines after a byte offset: the well-formed entries, and where they end. */
export interface JournalTail {
  entries: JournalEntry[];
  /** The 1-based line number of `entries[0]` in the file. */
  firstLine: number;
  /** Byte offset just past the last well-formed line (where the next append belongs). */
  end: number;
  /** Bytes after `end`: a torn last line (a write cut short by a crash), ignored; 0 when none. */
  torn: number;
}

/** The journal's bytes from `offset` to its end (empty when the file is missing and `offset` is 0). */
async function readFrom(file: string, offset: number): Promise<Buffer> {
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(file, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' && offset === 0) return Buffer.alloc(0);
    if (isDirectoryError(error)) throw directoryInPlaceOf(file, error);
    throw error;
  }
  try {
    const stats = await handle.stat();
    // POSIX opens a directory for reading; its read would fail with a raw EISDIR.
    if (stats.isDirectory()) throw directoryInPlaceOf(file);
    const { size } = stats;
    if (size < offset) {
      throw new InvalidAgentStateError({
        file,
        jsonPath: '',
        reason: `the journal has ${size} bytes but its checkpoint covers ${offset} (the journal was cut short)`,
      });
    }
    const buffer = Buffer.alloc(size - offset);
    let read = 0;
    while (read < buffer.length) {
      const { bytesRead } = await handle.read(buffer, read, buffer.length - read, offset + read);
      if (bytesRead === 0) break;
      read += bytesRead;
    }
    return buffer.subarray(0, read);
  } finally {
    await handle.close();
  }
}

/**
 * Reads the journal from byte `offset` (a line start: where a checkpoint ends), line `firstLine`.
 * Only the last line may be torn (no final "\n", or not JSON): it is left out and reported in
 * `torn`. Any other line that is not a journal entry is an InvalidAgentStateError naming the line.
 */
export async function readJournal(
  file: string,
  offset: number,
  firstLine: number,
): Promise<JournalTail> {
  const bytes = await readFrom(file, offset);
  const entries: JournalEntry[] = [];
  let start = 0;
  while (start < bytes.length) {
    const newline = bytes.indexOf(0x0a, start);
    // No "\n": the write of this line was cut short. It was never acknowledged, so it is dropped.
    if (newline === -1) break;
    const line = firstLine + entries.length;
    const text = bytes.toString('utf8', start, newline);
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      if (newline === bytes.length - 1) break;
      throw corruptLine(file, line, `not valid JSON (${(error as Error).message})`);
    }
    const problem = entryProblem(value);
    if (problem !== undefined) throw corruptLine(file, line, problem);
    entries.push(value as JournalEntry);
    start = newline + 1;
  }
  return { entries, firstLine, end: offset + start, torn: bytes.length - start };
}

/** The error for a journal line that is not an entry (and is not a torn last line). */
export function corruptLine(file: string, line: number, reason: string): InvalidAgentStateError {
  return new InvalidAgentStateError({
    file,
    jsonPath: '',
    reason:
      `journal line ${line} is ${reason}; only a torn last line (a crash mid-write) is ignored, ` +
      'a damaged line before others is not',
  });
}

/** Why `value` is not a journal entry, or undefined when it is one. */
function entryProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return 'not a JSON object';
  }
  const entry = value as Record<string, unknown>;
  const isObject = (key: string): boolean =>
    typeof entry[key] === 'object' && entry[key] !== null && !Array.isArray(entry[key]);
  const isStatus = isRunStatus(entry.status);
  switch (entry.type) {
    case 'commit':
      if (!(Number.isInteger(entry.from) && (entry.from as number) >= 0))
        return 'a commit without a valid "from"';
      if (!Array.isArray(entry.nodes)) return 'a commit without a "nodes" array';
      if (!(entry.head === null || Number.isInteger(entry.head)))
        return 'a commit with an invalid "head"';
      if (!(isObject('nextStep') && isObject('usage') && isObject('limits'))) {
        return 'a commit without "nextStep", "usage" and "limits" objects';
      }
      return isStatus ? undefined : 'a commit with an unknown status';
    case 'call-start':
      if (typeof entry.callId !== 'string') return 'a call-start without a "callId"';
      return Number.isInteger(entry.attempt) && (entry.attempt as number) > 0
        ? undefined
        : 'a call-start without a positive "attempt"';
    case 'call-end':
      if (typeof entry.callId !== 'string') return 'a call-end without a "callId"';
      return typeof entry.ok === 'boolean' ? undefined : 'a call-end without "ok"';
    case 'status':
      return isStatus ? undefined : 'a status entry with an unknown status';
    default:
      return `an entry of unknown type ${JSON.stringify(entry.type) ?? 'undefined'}`;
  }
}

/**
 * Checks that each commit starts at or before the end of the nodes stored so far (a gap means lines
 * are missing), naming the journal line, before the entries are replayed.
 */
export function checkCommitsContinue(file: string, tail: JournalTail, nodeCount: number): void {
  let count = nodeCount;
  tail.entries.forEach((entry, index) => {
    if (entry.type !== 'commit') return;
    if (entry.from > count) {
      throw corruptLine(
        file,
        tail.firstLine + index,
        `a commit from node ${entry.from} while only ${count} nodes are stored before it (entries are missing)`,
      );
    }
    count = entry.from + entry.nodes.length;
  });
}
