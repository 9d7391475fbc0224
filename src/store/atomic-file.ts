import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';

/**
 * Whole-file writes of a run folder's small files (run.json, checkpoint.json), done like saveState:
 * temp file in the same folder, fsync, rename over the target, fsync of the folder. A crash at any
 * moment leaves the old or the new file, never a torn one.
 */
export async function writeJsonAtomic(file: string, value: unknown): Promise<void> {
  const directory = path.dirname(file);
  const temp = path.join(
    directory,
    `.${path.basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`,
  );
  try {
    const handle = await fs.open(temp, 'w');
    try {
      await handle.writeFile(`${JSON.stringify(value)}\n`, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.rename(temp, file);
  } catch (error) {
    await fs.rm(temp, { force: true });
    throw error;
  }
  await syncDirectory(directory);
}

/** Makes renames and new files of a folder durable; best effort (some platforms cannot open folders). */
export async function syncDirectory(directory: string): Promise<void> {
  let handle: fs.FileHandle | undefined;
  try {
    handle = await fs.open(directory, 'r');
    await handle.sync();
  } catch {
    // Unsupported on some file systems (Windows); the files themselves were synced.
  } finally {
    await handle?.close();
  }
}

/**
 * Removes `.<name>.<pid>.<hex>.tmp` files in `directory` left by a process that was killed while it
 * wrote (its pid no longer exists). Best effort: errors are ignored, live writers' files are kept.
 */
export async function removeStaleTempFiles(directory: string): Promise<void> {
  let names: string[];
  try {
    names = await fs.readdir(directory);
  } catch {
    return;
  }
  for (const name of names) {
    const match = /^\..+\.(\d+)\.[0-9a-f]+\.tmp$/.exec(name);
    if (match === null) continue;
    const pid = Number(match[1]);
    if (pid === process.pid || isProcessAlive(pid)) continue;
    await fs.rm(path.join(directory, name), { force: true }).catch(() => undefined);
  }
}

/** True unless signalling the pid reports that no such process exists (ESRCH). */
function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

/** The file's text, or undefined when it does not exist (other read errors are thrown). */
export async function readIfExists(file: string): Promise<string | undefined> {
  try {
    return await fs.readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}
