import { promises as fs, writeSync } from 'node:fs';
import * as path from 'node:path';
import { RunNotFoundError } from '../errors/run-not-found.error';
import type { JournalEntry, RunStatus } from '../runs/run-store';
import { removeStaleTempFiles, writeJsonAtomic } from './atomic-file';
import { readJournal } from './journal-file';
import { CHECKPOINT_FILE, JOURNAL_FILE, replayRun, RUN_FILE } from './run-folder';
import {
  readCheckpoint,
  readRunFile,
  RUN_FILES_VERSION,
  statusAfter,
  type CheckpointFile,
  type RunFile,
} from './run-files';

/** When a run's journal gets a new checkpoint. */
export interface CheckpointPolicy {
  /** After this many commits past the last checkpoint. */
  every: number;
  /** Or once the journal past the last checkpoint has this many bytes. */
  bytes: number;
  /** With `every`: the journal past the last checkpoint is at least this share of the part it covers. */
  growth: number;
}

/**
 * A run's journal held open for appending by this process, with what it knows about the journal's
 * end (so an append never reads the file). One writer per run; its owner serializes the calls.
 */
export class JournalWriter {
  /** True when lines were written without an fsync covering them yet. */
  private dirty = false;
  /** The background fsync of `'batch'` mode, while one runs. */
  private syncing?: Promise<void>;
  /** A background fsync's failure, thrown by the next append or sync. */
  private syncFailure?: { error: unknown };

  private constructor(
    private readonly folder: string,
    private readonly handle: fs.FileHandle,
    /** Bytes of well-formed lines: where the next append goes. */
    private size: number,
    private checkpointOffset: number,
    private commitsSinceCheckpoint: number,
    /** run.json as it is on disk (it may lag behind the journal until the next append). */
    private runFile: RunFile,
    /** The status and stop reason after the journal's lines. */
    private current: { status: RunStatus; stopReason: string | undefined },
  ) {}

  /**
   * Opens the journal of the run in `folder`: reads the lines after the checkpoint (to know its end
   * and status) and cuts off a torn last line. A RunNotFoundError when the folder holds no run.
   */
  static async open(runId: string, folder: string): Promise<JournalWriter> {
    const runFile = await readRunFile(path.join(folder, RUN_FILE));
    if (runFile === undefined) {
      throw new RunNotFoundError({ runId, location: path.join(folder, RUN_FILE) });
    }
    await removeStaleTempFiles(folder);
    const checkpoint = await readCheckpoint(path.join(folder, CHECKPOINT_FILE));
    const journal = path.join(folder, JOURNAL_FILE);
    const tail = await readJournal(
      journal,
      checkpoint.journalOffset,
      checkpoint.journalEntries + 1,
    );
    const handle = await fs.open(journal, 'a');
    const writer = new JournalWriter(
      folder,
      handle,
      tail.end,
      checkpoint.journalOffset,
      tail.entries.filter((entry) => entry.type === 'commit').length,
      runFile,
      // When a crash came between a journal write and run.json's rewrite, run.json lags behind:
      // the next append rewrites it (only if the status it leads to differs from run.json's).
      statusAfter(tail.entries, checkpoint.status, checkpoint.stopReason),
    );
    try {
      // The next append's fsync makes the cut durable too.
      if (tail.torn > 0) await handle.truncate(tail.end);
    } catch (error) {
      await handle.close();
      throw error;
    }
    return writer;
  }

  /** The run's status after the lines appended so far. */
  get status(): RunStatus {
    return this.current.status;
  }

  /**
   * Appends `entries`, one JSON line each, in one write; then fsyncs (`'append'`), starts a
   * background fsync (`'batch'`) or leaves it to `sync()` (`'flush'`). Rewrites run.json when the
   * status or stop reason changed. After an error the journal may end in a partial line: close this
   * writer; the next one cuts it off.
   */
  async append(
    entries: readonly JournalEntry[],
    mode: 'batch' | 'append' | 'flush',
  ): Promise<void> {
    this.throwSyncFailure();
    const bytes = Buffer.from(entries.map((entry) => `${JSON.stringify(entry)}\n`).join(''));
    // Written synchronously: a step's few KB reach the page cache in microseconds, where an
    // asynchronous write costs the run a thread-pool round trip per step (the fsync stays async).
    let written = 0;
    while (written < bytes.length) {
      written += writeSync(this.handle.fd, bytes, written, bytes.length - written);
    }
    this.dirty = true;
    if (mode === 'append') await this.sync();
    else if (mode === 'batch') this.syncInBackground();
    this.size += bytes.length;
    this.commitsSinceCheckpoint += entries.filter((entry) => entry.type === 'commit').length;
    this.current = statusAfter(entries, this.current.status, this.current.stopReason);
    const time = entries[entries.length - 1]?.time ?? new Date().toISOString();
    await this.updateRunFile(this.current.status, this.current.stopReason, time);
  }

  /** True when the journal grew past the policy since the last checkpoint. */
  checkpointDue(policy: CheckpointPolicy): boolean {
    const past = this.size - this.checkpointOffset;
    if (past >= policy.bytes) return true;
    return (
      this.commitsSinceCheckpoint >= policy.every && past >= this.checkpointOffset * policy.growth
    );
  }

  /** Writes checkpoint.json covering the whole journal as it is now (the journal is fsynced first). */
  async checkpoint(): Promise<void> {
    await this.sync();
    const run = await replayRun(this.folder);
    const checkpoint: CheckpointFile = {
      version: RUN_FILES_VERSION,
      journalOffset: run.journalEnd,
      journalEntries: run.journalEntries,
      status: run.status,
      ...(this.current.stopReason === undefined ? {} : { stopReason: this.current.stopReason }),
      attempts: run.attempts,
      openCalls: run.openCalls,
      state: run.state,
    };
    await writeJsonAtomic(path.join(this.folder, CHECKPOINT_FILE), checkpoint);
    this.checkpointOffset = run.journalEnd;
    this.commitsSinceCheckpoint = 0;
  }

  /** Resolves once every line written so far is fsynced (after a background fsync still running). */
  async sync(): Promise<void> {
    while (this.syncing !== undefined) await this.syncing;
    this.throwSyncFailure();
    if (!this.dirty) return;
    this.dirty = false;
    await this.handle.sync();
  }

  /**
   * Group commit: starts one fsync when lines are unsynced and none runs; when it ends and more lines
   * came meanwhile, the next one starts. A failure is kept for the next append or sync to throw.
   */
  private syncInBackground(): void {
    if (this.syncing !== undefined || !this.dirty) return;
    this.dirty = false;
    this.syncing = this.handle.sync().then(
      () => {
        this.syncing = undefined;
        this.syncInBackground();
      },
      (error: unknown) => {
        this.syncing = undefined;
        this.dirty = true;
        this.syncFailure = { error };
      },
    );
  }

  private throwSyncFailure(): void {
    const failure = this.syncFailure;
    if (failure === undefined) return;
    this.syncFailure = undefined;
    throw failure.error;
  }

  /** Fsyncs pending lines and closes the file (closed even when the fsync fails). */
  async close(): Promise<void> {
    try {
      await this.sync();
    } finally {
      await this.handle.close();
    }
  }

  /** Rewrites run.json (atomically) when the status or the stop reason differs from it. */
  private async updateRunFile(
    status: RunStatus,
    stopReason: string | undefined,
    updatedAt: string,
  ): Promise<void> {
    if (status === this.runFile.status && stopReason === this.runFile.stopReason) return;
    const { stopReason: _previous, ...rest } = this.runFile;
    const runFile: RunFile = {
      ...rest,
      status,
      ...(stopReason === undefined ? {} : { stopReason }),
      updatedAt,
    };
    await writeJsonAtomic(path.join(this.folder, RUN_FILE), runFile);
    this.runFile = runFile;
  }
}
