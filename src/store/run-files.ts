import { InvalidAgentStateError } from '../errors/invalid-agent-state.error';
import type { AgentState, DoneStep } from '../runs/agent-state';
import { assertValidState } from '../runs/state-tree';
import { parseStateFileJson } from '../runs/state-file-json';
import {
  isRunStatus,
  type JournalEntry,
  type OpenCall,
  type RunHeader,
  type RunStatus,
  type RunSummary,
} from '../runs/run-store';
import { readIfExists } from './atomic-file';

/** The version of a run folder's files; a later layout bumps it. */
export const RUN_FILES_VERSION = 1;

/** `run.json`: the header, the status and the stop reason (rewritten when they change). */
export interface RunFile extends RunSummary {
  version: typeof RUN_FILES_VERSION;
}

/** `checkpoint.json`: a full stored state and the journal prefix it already contains. */
export interface CheckpointFile {
  version: typeof RUN_FILES_VERSION;
  /** Bytes of journal.jsonl the state includes; replay starts here. */
  journalOffset: number;
  /** Lines (entries) of journal.jsonl the state includes. */
  journalEntries: number;
  status: RunStatus;
  /** The stop reason once the run stopped. */
  stopReason?: string;
  attempts: Record<string, number>;
  openCalls: OpenCall[];
  state: AgentState;
}

/** Only the RunHeader fields of `file` (a run.json, or a header given to `create`). */
export function headerOf(file: RunHeader): RunHeader {
  const header: RunHeader = { runId: file.runId, createdAt: file.createdAt };
  if (file.parentRunId !== undefined) header.parentRunId = file.parentRunId;
  if (file.parentCallId !== undefined) header.parentCallId = file.parentCallId;
  if (file.task !== undefined) header.task = file.task;
  if (file.nestedModule !== undefined) header.nestedModule = file.nestedModule;
  if (file.origin !== undefined) header.origin = file.origin;
  if (file.labels !== undefined) header.labels = file.labels;
  if (file.experiment !== undefined) header.experiment = file.experiment;
  return header;
}

/** Reads a run.json; undefined when it does not exist (a folder whose create did not finish). */
export async function readRunFile(file: string): Promise<RunFile | undefined> {
  const text = await readIfExists(file);
  if (text === undefined) return undefined;
  const value = parseStateFileJson(text, file) as Partial<RunFile>;
  if (
    typeof value !== 'object' ||
    value === null ||
    typeof value.runId !== 'string' ||
    typeof value.createdAt !== 'string' ||
    !isRunStatus(value.status)
  ) {
    throw new InvalidAgentStateError({
      file,
      jsonPath: '',
      reason: 'expected a run header { runId, createdAt, status, updatedAt }',
    });
  }
  return value as RunFile;
}

/** Reads and checks a checkpoint.json (its state is checked like a state file). */
export async function readCheckpoint(file: string): Promise<CheckpointFile> {
  const text = await readIfExists(file);
  if (text === undefined) {
    throw new InvalidAgentStateError({ file, jsonPath: '', reason: 'the checkpoint is missing' });
  }
  const value = parseStateFileJson(text, file) as Partial<CheckpointFile>;
  const fail = (jsonPath: string, reason: string): never => {
    throw new InvalidAgentStateError({ file, jsonPath, reason });
  };
  if (typeof value !== 'object' || value === null) return fail('', 'expected a JSON object');
  if (!(Number.isInteger(value.journalOffset) && (value.journalOffset as number) >= 0)) {
    fail('/journalOffset', 'expected a byte offset');
  }
  if (!(Number.isInteger(value.journalEntries) && (value.journalEntries as number) >= 0)) {
    fail('/journalEntries', 'expected an entry count');
  }
  if (!isRunStatus(value.status)) fail('/status', 'expected a run status');
  if (value.stopReason !== undefined && typeof value.stopReason !== 'string') {
    fail('/stopReason', 'expected a string');
  }
  if (typeof value.attempts !== 'object' || value.attempts === null) {
    fail('/attempts', 'expected an object');
  }
  if (!Array.isArray(value.openCalls)) fail('/openCalls', 'expected an array');
  assertValidState(value.state, file);
  return value as CheckpointFile;
}

/** The stop reason a state's `nextStep` holds once the run stopped. */
export function stopReasonOf(state: AgentState): string | undefined {
  return state.nextStep.module === 'done' ? state.nextStep.args.reason : undefined;
}

/** The status and stop reason after `entries`, starting from `status` and `stopReason`. */
export function statusAfter(
  entries: readonly JournalEntry[],
  status: RunStatus,
  stopReason: string | undefined,
): { status: RunStatus; stopReason: string | undefined } {
  for (const entry of entries) {
    if (entry.type === 'commit') {
      status = entry.status;
      stopReason =
        entry.nextStep.module === 'done' ? (entry.nextStep as DoneStep).args.reason : undefined;
    } else if (entry.type === 'status') {
      status = entry.status;
      if (status === 'running') stopReason = undefined;
    }
  }
  return { status, stopReason };
}

/**
 * The Calls still open after a replay: those the replay of the entries after the checkpoint found,
 * plus the checkpoint's own open Calls that these entries neither ended nor started again and whose
 * result node is not in the state (replayJournal only knows the entries it is given).
 */
export function mergeOpenCalls(
  fromCheckpoint: readonly OpenCall[],
  entries: readonly JournalEntry[],
  replayed: readonly OpenCall[],
  state: AgentState,
): OpenCall[] {
  const touched = new Set<string>();
  for (const entry of entries) {
    if (entry.type === 'call-start' || entry.type === 'call-end') touched.add(entry.callId);
  }
  for (const node of state.nodes) {
    const source = node.metadata.source;
    if (source !== undefined) touched.add(`${source.nodeId}:${source.callIndex}`);
  }
  return [...fromCheckpoint.filter((call) => !touched.has(call.callId)), ...replayed];
}
