import { createHash } from 'node:crypto';
import { JSONParser } from '@streamparser/json';
import { InvalidAgentStateError } from '../errors/invalid-agent-state.error';
import type { AgentState } from '../runtime/loop/agent-state';
import { assertValidState } from '../runtime/loop/state-tree';

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
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new InvalidAgentStateError({
      file,
      jsonPath: brokenJsonPath(text),
      reason: `not valid JSON, the file is torn or broken there (${(error as Error).message})`,
      cause: error,
    });
  }
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

/**
 * The JSON Pointer of the innermost object or array that holds the last complete value of `text`
 * (where a torn file breaks off); `''` (the root) when not even one value is complete.
 */
export function brokenJsonPath(text: string): string {
  let last: Array<string | number | undefined> | undefined;
  const parser = new JSONParser({ keepStack: false });
  parser.onValue = ({ key, stack }) => {
    last = [...stack.map((entry) => entry.key), key];
  };
  parser.onError = () => undefined;
  try {
    parser.write(text);
    parser.end();
  } catch {
    // The parser stops at the fault; `last` is the last value it completed.
  }
  if (last === undefined) return '';
  // Drop the root's (undefined) key and the last value's own key: the container is what broke.
  const keys = last.slice(1, -1);
  return keys.map((key) => `/${String(key).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}
