import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { RunExistsError } from '../errors/run-exists.error';
import { cloneJson } from '../protocol/merge-patch';
import type { AgentState } from '../runs/agent-state';
import { commitEntry, replayJournal, statusOf } from '../runs/run-journal';
import { assertValidState } from '../runs/state-tree';
import type { OpenCall, RunHeader, RunStatus, RunSummary } from '../runs/run-store';
import { syncDirectory, tempPathOf, writeTextSynced } from '../internal/atomic-file';
import { checkCommitsContinue, readJournal } from './journal-file';
import {
  headerOf,
  mergeOpenCalls,
  readCheckpoint,
  readRunFile,
  RUN_FILES_VERSION,
  stopReasonOf,
  type CheckpointFile,
  type RunFile,
} from './run-files';

/** The files of a run folder (see FileRunStore for what each holds). */
export const RUN_FILE = 'run.json';
export const JOURNAL_FILE = 'journal.jsonl';
export const CHECKPOINT_FILE = 'checkpoint.json';

/** A run folder's checkpoint and journal replayed to the end, in the stored form (nested runs as ids). */
export interface ReplayedRun {
  state: AgentState;
  status: RunStatus;
  attempts: Record<string, number>;
  openCalls: OpenCall[];
  /** Byte offset just past the last well-formed journal line. */
  journalEnd: number;
  /** Well-formed journal lines. */
  journalEntries: number;
}

/**
 * Makes `folder` for a new run, atomically (issue 27 item 9): checkpoint.json (the stored initial
 * state, journal offset 0), an empty journal and run.json are written and fsynced in a temp folder
 * beside it (`.<runId>.<pid>.<hex>.tmp`, which no listing takes for a run), which is then renamed
 * into place. A kill at any moment leaves either no run or the whole run; a temp folder it leaves
 * is removed by the next store that opens the dir. The rename is the existence check: a
 * RunExistsError when a run holds the id already.
 */
export async function createRunFolder(
  folder: string,
  header: RunHeader,
  state: AgentState,
): Promise<void> {
  assertValidState(state);
  const parent = path.dirname(folder);
  await fs.mkdir(parent, { recursive: true });
  const status = statusOf(state);
  const stopReason = stopReasonOf(state);
  const checkpoint: CheckpointFile = {
    version: RUN_FILES_VERSION,
    journalOffset: 0,
    journalEntries: 0,
    status,
    ...(stopReason === undefined ? {} : { stopReason }),
    attempts: {},
    openCalls: [],
    state: storedState(state),
  };
  const runFile: RunFile = {
    version: RUN_FILES_VERSION,
    ...headerOf(header),
    status,
    ...(stopReason === undefined ? {} : { stopReason }),
    updatedAt: new Date().toISOString(),
  };
  const temp = tempPathOf(folder);
  try {
    await fs.mkdir(temp);
    await writeTextSynced(path.join(temp, CHECKPOINT_FILE), `${JSON.stringify(checkpoint)}\n`);
    // Empty: no data to fsync; the folder's fsync below makes its entry durable.
    await (await fs.open(path.join(temp, JOURNAL_FILE), 'wx')).close();
    await writeTextSynced(path.join(temp, RUN_FILE), `${JSON.stringify(runFile)}\n`);
    await syncDirectory(temp);
    await renameIntoPlace(temp, folder, header.runId);
  } catch (error) {
    await fs.rm(temp, { recursive: true, force: true }).catch(() => undefined);
    throw error;
  }
  await syncDirectory(parent);
}

/**
 * Renames the finished temp folder to the run's folder. A folder there that holds no run.json is
 * what an unfinished create of an older ideact left (it made the folder first): it holds no run, so
 * it is removed and the rename tried again; a folder with run.json is a RunExistsError.
 */
async function renameIntoPlace(temp: string, folder: string, runId: string): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await fs.rename(temp, folder);
      return;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'EEXIST' && code !== 'ENOTEMPTY' && code !== 'ENOTDIR') throw error;
      const halfMade =
        code !== 'ENOTDIR' &&
        attempt === 0 &&
        (await fs.stat(path.join(folder, RUN_FILE)).catch(() => undefined)) === undefined;
      if (!halfMade) throw new RunExistsError({ runId, location: folder, cause: error });
      await removeRunFolder(folder);
    }
  }
}

/**
 * Removes a run's folder so that no kill leaves a half of it under the run's name: it is renamed to
 * a temp name first (a leftover of it is removed by the next store that opens the dir), then deleted.
 */
export async function removeRunFolder(folder: string): Promise<void> {
  const doomed = tempPathOf(folder);
  try {
    await fs.rename(folder, doomed);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  await syncDirectory(path.dirname(folder));
  await fs.rm(doomed, { recursive: true, force: true });
}

/** The run folder's checkpoint plus the journal lines after it, replayed (nested runs as ids). */
export async function replayRun(folder: string): Promise<ReplayedRun> {
  const checkpoint = await readCheckpoint(path.join(folder, CHECKPOINT_FILE));
  const journal = path.join(folder, JOURNAL_FILE);
  const tail = await readJournal(journal, checkpoint.journalOffset, checkpoint.journalEntries + 1);
  checkCommitsContinue(journal, tail, checkpoint.state.nodes.length);
  const replay = replayJournal(checkpoint.state, tail.entries, {
    status: checkpoint.status,
    attempts: checkpoint.attempts,
  });
  if (tail.entries.length > 0) assertValidState(replay.state, journal);
  return {
    state: replay.state,
    status: replay.status,
    attempts: replay.attempts,
    openCalls: mergeOpenCalls(checkpoint.openCalls, tail.entries, replay.openCalls, replay.state),
    journalEnd: tail.end,
    journalEntries: checkpoint.journalEntries + tail.entries.length,
  };
}

/**
 * A run folder's run.json as a list row (undefined when it has none or it cannot be read);
 * `updatedAt` is the later of run.json's and the journal's last write.
 */
export async function summaryOf(folder: string): Promise<RunSummary | undefined> {
  let runFile: RunFile | undefined;
  try {
    runFile = await readRunFile(path.join(folder, RUN_FILE));
  } catch {
    return undefined;
  }
  if (runFile === undefined) return undefined;
  const { version: _version, ...summary } = runFile;
  const written = await fs.stat(path.join(folder, JOURNAL_FILE)).catch(() => undefined);
  if (written !== undefined && !(Date.parse(summary.updatedAt) >= written.mtimeMs)) {
    summary.updatedAt = written.mtime.toISOString();
  }
  return summary;
}

/** `state` as the journal keeps it (no rendered prompt, nested states as run ids), a copy. */
function storedState(state: AgentState): AgentState {
  const entry = commitEntry(state, 0);
  const { nodes: _nodes, nextStep: _nextStep, ...rest } = state;
  const stored = { ...(cloneJson(rest) as typeof rest), nodes: [], nextStep: entry.nextStep };
  return replayJournal(stored, [entry]).state;
}
