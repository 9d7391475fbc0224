import * as path from 'node:path';
import { InvalidAgentStateError } from '../errors/invalid-agent-state.error';

/**
 * The error for a store file (a run folder's `run.json`, `checkpoint.json` or `journal.jsonl`, a
 * state file's `migrated-from.json`) that is a directory (issue 27 item 9): an
 * InvalidAgentStateError naming the file and saying what to do, never a raw `EISDIR`.
 */
export function directoryInPlaceOf(file: string, cause?: unknown): InvalidAgentStateError {
  return new InvalidAgentStateError({
    file,
    jsonPath: '',
    reason:
      `it is a directory where the file ${path.basename(file)} belongs (ideact never makes one ` +
      `there); move that directory away and put the file back (e.g. from a backup), or delete ` +
      `the folder ${path.dirname(file)} to drop what it held`,
    ...(cause === undefined ? {} : { cause }),
  });
}

/** True for the error of reading (or opening) a directory as a file. */
export function isDirectoryError(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === 'EISDIR';
}
