import { promises as fs } from 'node:fs';
import type { StoredRunEvent } from '../runs/run-store';

/**
 * A run folder's `events.jsonl` (issue 32): the events a run handler streamed, one `{ seq, event }`
 * per line, appended in order. Only the last line may be torn (a kill mid-write): reads skip it and
 * the next append cuts it off, so numbering continues after the last whole line.
 */

/** The file name in a run's folder. */
export const EVENTS_FILE = 'events.jsonl';

/**
 * A run's events file open for appending (one write per batch, no open and close each time), after
 * cutting off a torn last line a killed process left.
 */
export class EventFileAppender {
  private constructor(private readonly handle: fs.FileHandle) {}

  /** Opens `file` for appending (creating it), its torn last line cut off first. */
  static async open(file: string): Promise<EventFileAppender> {
    await cutTornLine(file);
    return new EventFileAppender(await fs.open(file, 'a'));
  }

  /** Appends `events` as lines in one write; resolves once the write is done. */
  async append(events: readonly StoredRunEvent[]): Promise<void> {
    const text = events.map((stored) => JSON.stringify(stored)).join('\n');
    await this.handle.write(`${text}\n`);
  }

  close(): Promise<void> {
    return this.handle.close();
  }
}

/** The whole lines of the file with `seq` greater than `after`, in order; [] when there is none. */
export async function readEventLines(file: string, after: number): Promise<StoredRunEvent[]> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const end = text.lastIndexOf('\n');
  const events: StoredRunEvent[] = [];
  for (const line of text.slice(0, end + 1).split('\n')) {
    if (line === '') continue;
    const stored = JSON.parse(line) as StoredRunEvent;
    if (stored.seq > after) events.push(stored);
  }
  return events;
}

/** True when `labels` has every label of `wanted` (no filter: true). */
export function hasLabels(
  labels: Record<string, string> | undefined,
  wanted: Record<string, string> | undefined,
): boolean {
  if (wanted === undefined) return true;
  return Object.entries(wanted).every(([key, value]) => labels?.[key] === value);
}

async function cutTornLine(file: string): Promise<void> {
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(file, 'r+');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  try {
    const { size } = await handle.stat();
    if (size === 0) return;
    const last = Buffer.alloc(1);
    await handle.read(last, 0, 1, size - 1);
    if (last[0] === 0x0a) return;
    // Find the last newline and cut after it (a torn line is short: read the tail in pieces).
    let position = size;
    const chunk = Buffer.alloc(64 * 1024);
    while (position > 0) {
      const start = Math.max(0, position - chunk.length);
      const { bytesRead } = await handle.read(chunk, 0, position - start, start);
      const index = chunk.subarray(0, bytesRead).lastIndexOf(0x0a);
      if (index !== -1) {
        await handle.truncate(start + index + 1);
        return;
      }
      position = start;
    }
    await handle.truncate(0);
  } finally {
    await handle.close();
  }
}
