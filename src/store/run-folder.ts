import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { RunExistsError } from '../errors/run-exists.error';
import type { AgentState } from '../runtime/loop/agent-state';
import { commitEntry, replayJournal, statusOf } from '../runtime/loop/run-journal';
import { assertValidState } from '../runtime/loop/state-tree';
import type { OpenCall, RunHeader, RunStatus, RunSummary } from '../runtime/run-store';
import { writeJsonAtomic } from './atomic-file';
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
 * Makes `folder` for a new run: checkpoint.json (the stored initial state, journal offset 0), an
 * empty journal, and run.json last, so a folder without run.json is a create that did not finish.
 * The folder's creation is the existence check: a RunExistsError when it is there already.
 */
export async function createRunFolder(
  folder: string,
  header: RunHeader,
  state: AgentState,
): Promise<void> {
  assertValidState(state);
  await fs.mkdir(path.dirname(folder), { recursive: true });
  try {
    await fs.mkdir(folder);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    throw new RunExistsError({ runId: header.runId, location: folder, cause: error });
  }
  try {
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
    await writeJsonAtomic(path.join(folder, CHECKPOINT_FILE), checkpoint);
    await (await fs.open(path.join(folder, JOURNAL_FILE), 'w')).close();
    const runFile: RunFile = {
      version: RUN_FILES_VERSION,
      ...headerOf(header),
      status,
      ...(stopReason === undefined ? {} : { stopReason }),
      updatedAt: new Date().toISOString(),
    };
    await writeJsonAtomic(path.join(folder, RUN_FILE), runFile);
  } catch (error) {
    // A half-made folder would block the id; nothing of the run is stored yet.
    await fs.rm(folder, { recursive: true, force: true }).catch(() => undefined);
    throw error;
  }
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
  const stored = { ...structuredClone(rest), nodes: [], nextStep: entry.nextStep } as AgentState;
  return replayJournal(stored, [entry]).state;
}
