import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { InvalidAgentStateError } from '../errors/invalid-agent-state.error';
import { findJsonDepthViolation } from '../protocol/json-depth';
import type { AgentState } from './loop/agent-state';
import { assertValidState, depthReason, MAX_STATE_DEPTH } from './loop/state-tree';

/**
 * Writes `state` to `file` atomically (DESIGN §6, R-LOOP-5): the JSON goes to a temp file in the same
 * directory, is fsynced, then renamed over the target, so a crash at any moment leaves either the old
 * or the new state on disk, never a torn file. A missing directory is created; temp files that a
 * killed process left beside the file are removed.
 */
export async function saveState(file: string, state: AgentState): Promise<void> {
  const target = path.resolve(file);
  const directory = path.dirname(target);
  const violation = findJsonDepthViolation(state, MAX_STATE_DEPTH);
  if (violation !== undefined) {
    throw new InvalidAgentStateError({
      file,
      jsonPath: violation.jsonPath,
      reason: depthReason(violation.maxDepth),
    });
  }
  const text = `${JSON.stringify(state, null, 2)}\n`;
  // The first run of a new app: `stateFile: 'runs/oslo.json'` must not fail on a missing `runs/`.
  await fs.mkdir(directory, { recursive: true });
  await removeStaleTempFiles(target);
  const temp = path.join(
    directory,
    `${tempPrefix(target)}${process.pid}.${randomBytes(4).toString('hex')}.tmp`,
  );
  try {
    const handle = await fs.open(temp, 'w');
    try {
      await handle.writeFile(text, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.rename(temp, target);
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
  await removeStaleTempFiles(path.resolve(file));
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

/** `.<name>.`: what every temp file of `target` starts with (then `<pid>.<hex>.tmp`). */
function tempPrefix(target: string): string {
  return `.${path.basename(target)}.`;
}

/** State files whose directory was already cleaned by this process (once per file is enough). */
const cleaned = new Set<string>();

/**
 * Removes `.<name>.<pid>.<hex>.tmp` files beside `target` whose process is gone: a save interrupted
 * by a kill leaves one behind. Best effort: a temp file of a live process (another run saving right
 * now) is kept, and any error here is ignored, since the save or load itself matters more.
 */
async function removeStaleTempFiles(target: string): Promise<void> {
  if (cleaned.has(target)) return;
  cleaned.add(target);
  const prefix = tempPrefix(target);
  let names: string[];
  try {
    names = await fs.readdir(path.dirname(target));
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    const match = /^(\d+)\.[0-9a-f]+\.tmp$/.exec(name.slice(prefix.length));
    if (match === null) continue;
    const pid = Number(match[1]);
    if (pid === process.pid || isProcessAlive(pid)) continue;
    await fs.rm(path.join(path.dirname(target), name), { force: true }).catch(() => undefined);
  }
}

/** True unless signalling the pid reports that no such process exists (ESRCH). */
function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
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
