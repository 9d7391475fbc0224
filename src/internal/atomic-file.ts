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
  const temp = tempPathOf(file);
  try {
    await writeTextSynced(temp, text);
    await fs.rename(temp, file);
  } catch (error) {
    // The previous file is untouched; do not leave a partial temp file beside it.
    await fs.rm(temp, { force: true });
    throw error;
  }
  await syncDirectory(directory);
}

/**
 * A temp name beside `target` for an atomic write or a folder built before it is renamed into place:
 * `.<name>.<pid>.<hex>.tmp`. The dot hides it (and keeps it out of a FileRunStore's list); the pid
 * lets {@link removeStaleTempFiles} tell a killed writer's leftover from a live writer's file.
 */
export function tempPathOf(target: string): string {
  return path.join(
    path.dirname(target),
    `.${path.basename(target)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`,
  );
}

/** Writes a new file (it must not exist) and fsyncs it before resolving. */
export async function writeTextSynced(file: string, text: string): Promise<void> {
  const handle = await fs.open(file, 'wx');
  try {
    await handle.writeFile(text, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
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
 * in the name no longer exists), and the temp folders of the same name pattern (a run folder whose
 * creation or deletion a kill cut short); `name` limits it to the temps of one target. Best effort:
 * errors are ignored, live writers' temps are kept.
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
    await fs
      .rm(path.join(directory, entry), { recursive: true, force: true })
      .catch(() => undefined);
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
