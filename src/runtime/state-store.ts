import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { InvalidAgentStateError } from '../errors/invalid-agent-state.error';
import type { AgentState } from './loop/agent-state';
import { assertValidState } from './loop/state-tree';

/**
 * Writes `state` to `file` atomically (DESIGN §6, R-LOOP-5): the JSON goes to a temp file in the same
 * directory, is fsynced, then renamed over the target, so a crash at any moment leaves either the old
 * or the new state on disk, never a torn file.
 */
export async function saveState(file: string, state: AgentState): Promise<void> {
  const directory = path.dirname(path.resolve(file));
  const temp = path.join(
    directory,
    `.${path.basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`,
  );
  const text = `${JSON.stringify(state, null, 2)}\n`;
  try {
    const handle = await fs.open(temp, 'w');
    try {
      await handle.writeFile(text, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.rename(temp, file);
  } catch (error) {
    // The previous state file is untouched; do not leave a partial temp file beside it.
    await fs.rm(temp, { force: true });
    throw error;
  }
  await syncDirectory(directory);
}

/** Reads and checks a state file written by {@link saveState} (or edited by hand). */
export async function loadState(file: string): Promise<AgentState> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (error) {
    throw new InvalidAgentStateError({
      file,
      jsonPath: '',
      reason: `cannot read the file (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
      cause: error,
    });
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new InvalidAgentStateError({
      file,
      jsonPath: '',
      reason: `not valid JSON (${(error as Error).message})`,
      cause: error,
    });
  }
  assertValidState(value, file);
  return value;
}

/** Makes the rename durable too; some platforms (Windows) cannot open directories, which is fine. */
async function syncDirectory(directory: string): Promise<void> {
  let handle: fs.FileHandle | undefined;
  try {
    handle = await fs.open(directory, 'r');
    await handle.sync();
  } catch {
    // Directory fsync is best effort: unsupported on some file systems.
  } finally {
    await handle?.close();
  }
}
