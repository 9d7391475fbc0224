import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { InvalidAgentStateError } from '../errors/invalid-agent-state.error';
import { InvalidRunIdError } from '../errors/invalid-run-id.error';
import type { AgentState } from '../runs/agent-state';
import type {
  JournalEntry,
  RunFilter,
  RunHeader,
  RunStore,
  RunSummary,
  StoredRun,
  StoredRunEvent,
} from '../runs/run-store';
import { EventFileAppender, EVENTS_FILE, hasLabels, readEventLines } from './event-file';
import { removeStaleTempFiles } from './atomic-file';
import { JournalWriter, type CheckpointPolicy } from './journal-writer';
import { headerOf, readRunFile } from './run-files';
import { createRunFolder, removeRunFolder, replayRun, RUN_FILE, summaryOf } from './run-folder';
import { RunQueues } from './run-queues';

/** Options of {@link FileRunStore}. */
export interface FileRunStoreOptions {
  /** The folder that holds a folder per run; default `.ideact/runs` under the working directory. */
  dir?: string;
  /**
   * A new checkpoint after this many commits past the last one (default 64), once the journal past
   * it has also grown by `checkpointGrowth` × the part the last checkpoint covers.
   */
  checkpointEvery?: number;
  /**
   * The growth, relative to the journal the last checkpoint covers, before the next one (default
   * 0.5). A checkpoint replays the whole run, so checkpoints spaced geometrically keep a long run's
   * total checkpoint work linear in its size (load then replays at most about half as much journal
   * as the checkpoint holds); 0 checkpoints strictly every `checkpointEvery` commits.
   */
  checkpointGrowth?: number;
  /** …or once the journal past the last checkpoint has this many bytes, whatever the rest (default 4 MiB). */
  checkpointBytes?: number;
  /**
   * When appended lines are fsynced. Every `append` writes its lines before it resolves, so a killed
   * process never loses an appended line; the fsync protects against a machine crash:
   * - `'batch'` (default): group commit. An fsync starts in the background after an append, one at
   *   a time, each covering every line written before it began (so at most one fsync per append,
   *   usually fewer); `flush()`, which a run awaits at its end, waits for it. A machine crash may lose
   *   the last milliseconds of lines: the run repeats those steps on resume (at-least-once).
   * - `'append'`: each `append` awaits its own fsync (slower: one disk flush per step and per Call).
   * - `'flush'`: only on `store.flush()`, `close()`, checkpoints and when a run stops.
   */
  sync?: 'batch' | 'append' | 'flush';
}

/** Run ids name folders: 1 to 200 letters, digits, `_` and `-`. */
const RUN_ID = /^[A-Za-z0-9_-]{1,200}$/;

/**
 * A {@link RunStore} on the local disk, no server (issue 18): `<dir>/<runId>/` per run, holding
 * - `run.json`: the RunHeader fields, `status`, `stopReason`, `updatedAt` (and `version`); written
 *   atomically (temp file, fsync, rename) at `create` and whenever the status or stop reason
 *   changes. `list` reads only these.
 * - `journal.jsonl`: append-only, one JournalEntry as JSON per line; each `append` is one write and
 *   one fsync, never a rewrite. Only the last line may be torn (no final "\n", or not JSON: a crash
 *   mid-write): `load` ignores it, the next `append` cuts it off. Any other bad line is an
 *   InvalidAgentStateError naming the file and the line.
 * - `checkpoint.json`: `{ version, journalOffset, journalEntries, status, stopReason, attempts,
 *   openCalls, state }`: the stored state (no rendered prompt; nested states as `metadata.nestedRunIds`) including the
 *   journal's first `journalOffset` bytes (`journalEntries` lines); written atomically at `create`
 *   (offset 0), then after `checkpointEvery` commits once the journal grew by `checkpointGrowth` × the
 *   part it covers (or after `checkpointBytes`). `load` replays only the lines after it.
 * Nested runs are runs of their own (`parentRunId`); `load` puts their states back into
 * `metadata.nested`. One process writes a run at a time; its appends are serialized in order. The
 * journal of a running run stays open between appends: `close()` the store when done with it.
 * A run's folder appears whole or not at all: `create` builds it under a temp name and renames it
 * into place, `delete` renames it away before removing it; the temp folders and files a killed
 * process left (`.<name>.<pid>.<hex>.tmp`, its pid gone) are removed by the store's first
 * operation (in the dir) and by the run's first load (in its folder).
 */
export class FileRunStore implements RunStore {
  /** The absolute folder holding the runs (resolved when the store is made). */
  readonly dir: string;
  private readonly policy: CheckpointPolicy;
  private readonly syncMode: 'batch' | 'append' | 'flush';
  private readonly writers = new Map<string, JournalWriter>();
  private readonly queues = new RunQueues();
  /** The clean-up of the dir's leftovers, started by the first operation. */
  private cleaning?: Promise<void>;
  /** The events files of served runs being appended to (closed at their run-end and by close()). */
  private readonly eventFiles = new Map<string, EventFileAppender>();
  /** Runs whose folder this store object has cleaned of stale temp files. */
  private readonly cleanedRuns = new Set<string>();

  constructor(options: FileRunStoreOptions = {}) {
    this.dir = path.resolve(options.dir ?? path.join(process.cwd(), '.ideact', 'runs'));
    this.policy = {
      every: Math.max(1, Math.floor(options.checkpointEvery ?? 64)),
      bytes: Math.max(1, options.checkpointBytes ?? 4 * 1024 * 1024),
      growth: Math.max(0, options.checkpointGrowth ?? 0.5),
    };
    this.syncMode = options.sync ?? 'batch';
  }

  /**
   * Creates `<dir>/<runId>/` atomically (built under a temp name, then renamed into place); a
   * RunExistsError when the run exists. The dir is made if missing.
   */
  async create(header: RunHeader, state: AgentState): Promise<void> {
    const folder = this.folderOf(header.runId);
    await this.cleanDir();
    return this.queues.run(header.runId, () => createRunFolder(folder, header, state));
  }

  /** Appends `entries` as journal lines in one write (fsynced as `sync` says); a checkpoint now and then. */
  async append(runId: string, entries: readonly JournalEntry[]): Promise<void> {
    const folder = this.folderOf(runId);
    if (entries.length === 0) return;
    return this.queues.run(runId, async () => {
      let writer = this.writers.get(runId);
      if (writer === undefined) {
        writer = await JournalWriter.open(runId, folder);
        this.writers.set(runId, writer);
      }
      try {
        await writer.append(entries, this.syncMode);
      } catch (error) {
        // The journal may end in a partial line: the next writer cuts it off.
        await this.closeWriter(runId).catch(() => undefined);
        throw error;
      }
      if (writer.checkpointDue(this.policy)) {
        // Best effort: the entries are durable already; a failed checkpoint is tried again later.
        await writer.checkpoint().catch(() => undefined);
      }
      // A run that stopped may wait for days (an approval): do not hold its file open meanwhile.
      if (writer.status !== 'running') await this.closeWriter(runId);
    });
  }

  /** The run's header, status and state (checkpoint + later journal lines; nested runs loaded too). */
  async load(runId: string): Promise<StoredRun | undefined> {
    this.folderOf(runId);
    await this.cleanDir();
    return this.loadRun(runId, []);
  }

  /** Runs by their run.json, newest first (`createdAt`). */
  async list(filter: RunFilter = {}): Promise<RunSummary[]> {
    const statuses = filter.status === undefined ? undefined : [filter.status].flat();
    const parent = filter.parentRunId;
    const rows = (await this.summaries()).filter(
      (row) =>
        (statuses === undefined || statuses.includes(row.status)) &&
        (parent === undefined ||
          (parent === null ? row.parentRunId === undefined : row.parentRunId === parent)) &&
        hasLabels(row.labels, filter.labels) &&
        (filter.experiment === undefined || row.experiment?.id === filter.experiment),
    );
    rows.sort(
      (a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt) || a.runId.localeCompare(b.runId),
    );
    return filter.limit === undefined ? rows : rows.slice(0, Math.max(0, filter.limit));
  }

  /** Removes the run's folder and those of its nested runs (by `parentRunId`, at any depth). */
  async delete(runId: string): Promise<void> {
    this.folderOf(runId);
    const children = new Map<string, string[]>();
    for (const row of await this.summaries()) {
      if (row.parentRunId === undefined) continue;
      children.set(row.parentRunId, [...(children.get(row.parentRunId) ?? []), row.runId]);
    }
    const doomed = new Set<string>([runId]);
    for (const id of doomed) for (const child of children.get(id) ?? []) doomed.add(child);
    for (const id of doomed) {
      await this.queues.run(id, async () => {
        await this.closeWriter(id);
        await this.closeEvents(id);
        await removeRunFolder(path.join(this.dir, id));
      });
    }
  }

  /**
   * Appends a served run's events (issue 32) to `<dir>/<runId>/events.jsonl`, one `{ seq, event }`
   * per line, in one write; a line a kill cut short is cut off first.
   */
  async appendEvents(runId: string, events: readonly StoredRunEvent[]): Promise<void> {
    const folder = this.folderOf(runId);
    if (events.length === 0) return;
    return this.queues.run(runId, async () => {
      let appender = this.eventFiles.get(runId);
      if (appender === undefined) {
        appender = await EventFileAppender.open(path.join(folder, EVENTS_FILE));
        this.eventFiles.set(runId, appender);
      }
      await appender.append(events);
      // The run's segment ended (its run-end): the file is closed until it is resumed.
      if (events.some(({ event }) => event.type === 'run-end' && event.path.length === 1)) {
        await this.closeEvents(runId);
      }
    });
  }

  /** The run's served events after `after` (a torn last line is left out). */
  async readEvents(runId: string, after = 0): Promise<StoredRunEvent[]> {
    const folder = this.folderOf(runId);
    return this.queues.run(runId, () => readEventLines(path.join(folder, EVENTS_FILE), after));
  }

  /** Resolves once every line appended so far is fsynced (waits for the background fsync of `'batch'`). */
  async flush(): Promise<void> {
    await Promise.all(
      [...this.writers.keys()].map((runId) =>
        this.queues.run(runId, async () => this.writers.get(runId)?.sync()),
      ),
    );
  }

  /** Waits for pending appends, then fsyncs and closes the open journals and events files. */
  async close(): Promise<void> {
    await Promise.all(
      [...this.writers.keys()].map((runId) =>
        this.queues.run(runId, () => this.closeWriter(runId)),
      ),
    );
    await Promise.all(
      [...this.eventFiles.keys()].map((runId) =>
        this.queues.run(runId, () => this.closeEvents(runId)),
      ),
    );
  }

  private async closeEvents(runId: string): Promise<void> {
    const appender = this.eventFiles.get(runId);
    if (appender === undefined) return;
    this.eventFiles.delete(runId);
    await appender.close();
  }

  /** The run's folder; an InvalidRunIdError for an id that is not a safe folder name. */
  private folderOf(runId: string): string {
    if (typeof runId !== 'string' || !RUN_ID.test(runId)) throw new InvalidRunIdError({ runId });
    return path.join(this.dir, runId);
  }

  private async closeWriter(runId: string): Promise<void> {
    const writer = this.writers.get(runId);
    if (writer === undefined) return;
    this.writers.delete(runId);
    await writer.close();
  }

  /** Loads a run (after its pending appends) and, outside its queue, the runs nested in it. */
  private async loadRun(runId: string, ancestors: string[]): Promise<StoredRun | undefined> {
    const folder = path.join(this.dir, runId);
    const loaded = await this.queues.run(runId, async () => {
      const runFile = await readRunFile(path.join(folder, RUN_FILE));
      if (runFile === undefined) return undefined;
      if (!this.cleanedRuns.has(runId)) {
        // Temp files of a checkpoint or run.json write that a kill cut short (their pid is gone).
        this.cleanedRuns.add(runId);
        await removeStaleTempFiles(folder);
      }
      return { runFile, run: await replayRun(folder) };
    });
    if (loaded === undefined) return undefined;
    const { runFile, run } = loaded;
    await this.loadNested(run.state, folder, [...ancestors, runId]);
    const { status, state, attempts, openCalls } = run;
    return { header: headerOf(runFile), status, state, attempts, openCalls };
  }

  /** Puts the states of the runs that `metadata.nestedRunIds` names back into `metadata.nested`. */
  private async loadNested(state: AgentState, folder: string, ancestors: string[]): Promise<void> {
    for (const node of state.nodes) {
      const ids = node.metadata.nestedRunIds;
      if (ids === undefined) continue;
      const jsonPath = `/nodes/${node.id}/metadata/nestedRunIds`;
      const fail = (at: string, reason: string): never => {
        throw new InvalidAgentStateError({ file: folder, jsonPath: at, reason });
      };
      if (!Array.isArray(ids)) fail(jsonPath, 'expected an array of run ids');
      const nested: AgentState[] = [];
      for (const [index, id] of (ids as unknown[]).entries()) {
        if (typeof id !== 'string' || !RUN_ID.test(id)) {
          return fail(`${jsonPath}/${index}`, 'expected the id of a nested run');
        }
        if (ancestors.includes(id)) fail(`${jsonPath}/${index}`, `run "${id}" would nest itself`);
        const run = await this.loadRun(id, ancestors);
        if (run === undefined) {
          return fail(`${jsonPath}/${index}`, `names run "${id}", which is not in the store`);
        }
        nested.push(run.state);
      }
      node.metadata.nested = nested;
      delete node.metadata.nestedRunIds;
    }
  }

  /**
   * Once per store object, before its first create, load, list or delete: removes what killed
   * processes left in the dir (temp folders of a create or a delete cut short, a state file's temp
   * files), so a leftover never lingers and never looks like a run.
   */
  private cleanDir(): Promise<void> {
    this.cleaning ??= removeStaleTempFiles(this.dir);
    return this.cleaning;
  }

  /** run.json of every run folder (folders without one, or with a broken one, are left out). */
  private async summaries(): Promise<RunSummary[]> {
    await this.cleanDir();
    let names: string[];
    try {
      names = await fs.readdir(this.dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    const rows = await Promise.all(
      names.filter((name) => RUN_ID.test(name)).map((name) => summaryOf(path.join(this.dir, name))),
    );
    return rows.filter((row): row is RunSummary => row !== undefined);
  }
}
