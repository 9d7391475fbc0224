import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { RunEvent } from '../runs/run-event';
import type { RenderedMessage } from './playground-api';

/**
 * The playground's own record of each run it started, beside the run store (whose journal keeps
 * states, not events): `<dir>/<runId>.meta.json` (which Tool, how it runs) and
 * `<dir>/<runId>.events.jsonl` (every event, and each request's rendered messages), so a run's tree
 * and messages are shown again after a restart. Works with any RunStore.
 */

/** What the playground started a run with. */
export interface RunLogMeta {
  tool: string;
  mode: 'call' | 'agent';
}

/** One line of a run's events file. */
export type RunLogLine =
  | { kind: 'event'; event: RunEvent }
  | { kind: 'messages'; requestId: string; messages: RenderedMessage[] };

/** Run ids the log accepts as file names (the store's ids: `run_…`, letters, digits, `_`, `-`). */
export const PLAYGROUND_RUN_ID = /^[A-Za-z0-9_-]{1,128}$/;

/** Appends events per run in order (batched per tick), reads them back. */
export class RunEventLog {
  private readonly pending = new Map<string, string[]>();
  private writing: Promise<void> = Promise.resolve();
  private scheduled = false;

  constructor(readonly dir: string) {}

  /** Records what the run was started with. */
  async writeMeta(runId: string, meta: RunLogMeta): Promise<void> {
    await fs.mkdir(this.dir, { recursive: true });
    await fs.writeFile(this.file(runId, '.meta.json'), JSON.stringify(meta));
  }

  /** What the run was started with; undefined for runs the playground did not start. */
  async readMeta(runId: string): Promise<RunLogMeta | undefined> {
    try {
      return JSON.parse(await fs.readFile(this.file(runId, '.meta.json'), 'utf8')) as RunLogMeta;
    } catch {
      return undefined;
    }
  }

  /** Queues lines for the run's file (written in order, soon). */
  append(runId: string, line: RunLogLine): void {
    const lines = this.pending.get(runId) ?? [];
    lines.push(JSON.stringify(line));
    this.pending.set(runId, lines);
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => {
        this.scheduled = false;
        this.writing = this.writing.then(() => this.writePending());
      });
    }
  }

  /** Resolves once every queued line is written. */
  async flush(): Promise<void> {
    for (;;) {
      const current = this.writing;
      await current;
      if (this.pending.size === 0 && !this.scheduled && current === this.writing) return;
      if (!this.scheduled) this.writing = this.writing.then(() => this.writePending());
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  /** The run's lines in order; undefined when the playground has none for it. */
  async read(runId: string): Promise<RunLogLine[] | undefined> {
    await this.flush();
    let text: string;
    try {
      text = await fs.readFile(this.file(runId, '.events.jsonl'), 'utf8');
    } catch {
      return undefined;
    }
    const lines: RunLogLine[] = [];
    for (const line of text.split('\n')) {
      if (line.trim() === '') continue;
      try {
        lines.push(JSON.parse(line) as RunLogLine);
      } catch {
        // A line cut short by a crash: the rest of the file is still read.
      }
    }
    return lines;
  }

  private async writePending(): Promise<void> {
    if (this.pending.size === 0) return;
    const batch = [...this.pending.entries()];
    this.pending.clear();
    await fs.mkdir(this.dir, { recursive: true });
    for (const [runId, lines] of batch) {
      await fs.appendFile(this.file(runId, '.events.jsonl'), `${lines.join('\n')}\n`);
    }
  }

  private file(runId: string, suffix: string): string {
    if (!PLAYGROUND_RUN_ID.test(runId)) throw new Error(`not a run id: ${runId}`);
    return path.join(this.dir, `${runId}${suffix}`);
  }
}
