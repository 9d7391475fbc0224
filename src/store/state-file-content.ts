import { createHash } from 'node:crypto';
import { InvalidAgentStateError } from '../errors/invalid-agent-state.error';
import type { AgentState } from '../runs/agent-state';
import { assertValidState } from '../runs/state-tree';
import { parseStateFileJson } from '../runs/state-file-json';

/**
 * What a state file holds since issue 18 (written once, when its run is created): the folder of the
 * run's store, relative to the file, and the run's id. The run itself is in that FileRunStore.
 */
export interface StateFilePointer {
  format: typeof STATE_FILE_FORMAT;
  version: 1;
  /** The store's folder, relative to the state file's folder: `<file name>.run`. */
  store: string;
  runId: string;
}

/** The `format` of a {@link StateFilePointer} (an older state file has none: it is an AgentState). */
export const STATE_FILE_FORMAT = 'ideact-state-file';

/** A state file's content: a pointer to a one-run store (since issue 18), or an older whole state. */
export type StateFileContent =
  | { kind: 'pointer'; pointer: StateFilePointer }
  | { kind: 'state'; state: AgentState; sha256: string };

/**
 * Parses a state file's text (either format) and checks it. A torn or otherwise broken file is an
 * InvalidAgentStateError naming the file and the JSON path of the object or array the text breaks
 * off in (e.g. `/nodes/3/message` for a file cut inside node 3's message).
 */
export function parseStateFileText(text: string, file: string): StateFileContent {
  const value = parseStateFileJson(text, file);
  if (
    typeof value === 'object' &&
    value !== null &&
    (value as { format?: unknown }).format === STATE_FILE_FORMAT
  ) {
    return { kind: 'pointer', pointer: checkPointer(value as Record<string, unknown>, file) };
  }
  assertValidState(value, file);
  return { kind: 'state', state: value, sha256: createHash('sha256').update(text).digest('hex') };
}

function checkPointer(value: Record<string, unknown>, file: string): StateFilePointer {
  const fail = (jsonPath: string, reason: string): never => {
    throw new InvalidAgentStateError({ file, jsonPath, reason });
  };
  if (value.version !== 1) fail('/version', `expected 1, got ${JSON.stringify(value.version)}`);
  if (typeof value.store !== 'string' || value.store === '') {
    fail('/store', 'expected the folder of the run store (a non-empty string)');
  }
  if (typeof value.runId !== 'string' || value.runId === '') {
    fail('/runId', 'expected the id of the run (a non-empty string)');
  }
  return value as unknown as StateFilePointer;
}
