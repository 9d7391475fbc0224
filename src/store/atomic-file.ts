import { promises as fs } from 'node:fs';
import { writeTextAtomic } from '../internal/atomic-file';
import { directoryInPlaceOf, isDirectoryError } from './directory-in-place';

export { removeStaleTempFiles, syncDirectory } from '../internal/atomic-file';

/** Writes a run folder's small JSON files (run.json, checkpoint.json) atomically (see writeTextAtomic). */
export async function writeJsonAtomic(file: string, value: unknown): Promise<void> {
  await writeTextAtomic(file, `${JSON.stringify(value)}\n`);
}

/**
 * The file's text, or undefined when it does not exist; a directory in its place is an
 * InvalidAgentStateError naming it (other read errors are thrown as they are).
 */
export async function readIfExists(file: string): Promise<string | undefined> {
  try {
    return await fs.readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    if (isDirectoryError(error)) throw directoryInPlaceOf(file, error);
    throw error;
  }
}
