import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';

/**
 * Whole-file writes that a crash cannot tear (state files, a run folder's small files): a temp file
 * `.<name>.<pid>.<hex>.tmp` in the same folder, fsync, rename over the target, fsync of the folder. A
 * crash at any moment leaves the old or the new file. Shared by the runtime's state files and the
 * stores, so both write (and clean up after killed writers) the same way.
 */
export async function writeTextAtomic(file: string, text: string): Promise<void> {
  const directory = path.dirname(file);
  const temp = path.join(
    directory,
    `.${path.basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`,
  );
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
    // The previous file is untouched; do not leave a partial temp file beside it.
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
 * Removes the temp files `writeTextAtomic` left in `directory` when its process was killed (the pid
 * in the name no longer exists); `name` limits it to the temp files of one target file. Best effort:
 * errors are ignored, live writers' files are kept.
 */
export async function removeStaleTempFiles(directory: string, name?: string): Promise<void> {
  let names: string[];
  try {
    names = await fs.readdir(directory);
  } catch {
    return;
  }
  for (const entry of names) {
    // `.<name>.<pid>.<hex>.tmp`: any name, or exactly `name`'s temp files.
    const match =
      name === undefined
        ? /^\..+\.(\d+)\.[0-9a-f]+\.tmp$/.exec(entry)
        : entry.startsWith(`.${name}.`)
          ? /^(\d+)\.[0-9a-f]+\.tmp$/.exec(entry.slice(name.length + 2))
          : null;
    if (match === null) continue;
    const pid = Number(match[1]);
    if (pid === process.pid || isProcessAlive(pid)) continue;
    await fs.rm(path.join(directory, entry), { force: true }).catch(() => undefined);
  }
}

/** True unless signalling the pid reports that no such process exists (ESRCH; EPERM means it exists). */
function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}
