import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { InvalidAgentStateError } from '../errors/invalid-agent-state.error';
import { removeStaleTempFiles, writeTextAtomic } from '../internal/atomic-file';
import { findJsonDepthViolation } from '../protocol/json-depth';
import type { AgentState } from './agent-state';
import { assertValidState, depthReason, MAX_STATE_DEPTH } from './state-tree';
import { parseStateFileJson } from './state-file-json';

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
  await removeStaleTempFilesOnce(target);
  await writeTextAtomic(target, text);
}

/** A state file's text; an InvalidAgentStateError naming the file when it cannot be read. @internal */
export async function readStateFileText(file: string): Promise<string> {
  try {
    return await fs.readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new InvalidAgentStateError({
      file,
      jsonPath: '',
      reason:
        code === 'EISDIR'
          ? 'it is a directory, not a state file: pass the path of the state file itself (its run store is the folder beside it, `<file>.run`)'
          : `cannot read the file (${code ?? String(error)})`,
      cause: error,
    });
  }
}

/** Reads and checks a state file written by {@link saveState} (or edited by hand). */
export async function loadState(file: string): Promise<AgentState> {
  const text = await readStateFileText(file);
  await removeStaleTempFilesOnce(path.resolve(file));
  const value = parseStateFileJson(text, file);
  assertValidState(value, file);
  return value;
}

/** State files whose directory was already cleaned by this process (once per file is enough). */
const cleaned = new Set<string>();

/**
 * Removes `.<name>.<pid>.<hex>.tmp` files beside `target` whose process is gone: a save interrupted
 * by a kill leaves one behind. Once per file and process; a live writer's temp file is kept.
 */
async function removeStaleTempFilesOnce(target: string): Promise<void> {
  if (cleaned.has(target)) return;
  cleaned.add(target);
  await removeStaleTempFiles(path.dirname(target), path.basename(target));
}
