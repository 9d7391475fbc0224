import { JSONParser } from '@streamparser/json';
import { InvalidAgentStateError } from '../errors/invalid-agent-state.error';

/**
 * Parses the JSON text of a file that holds an agent state or a run's record (a state file, a run
 * folder's run.json or checkpoint.json): one parser for all of them (issue 27 item 11), so every
 * broken file gives the same InvalidAgentStateError, naming the file and the JSON path of the object
 * or array the text breaks off in (e.g. `/nodes/3/message` for a file cut inside node 3's message).
 * The value is returned unchecked: each caller checks its own shape.
 */
export function parseStateFileJson(text: string, file: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new InvalidAgentStateError({
      file,
      jsonPath: brokenJsonPath(text),
      reason: `not valid JSON, the file is torn or broken there (${(error as Error).message})`,
      cause: error,
    });
  }
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
