import { InputError } from './input.error';

/**
 * An agent state (a state file, or a state edited by hand) is not usable: wrong version, broken tree,
 * a `nextStep` pointing at a missing node. The message names the file and the JSON path at fault.
 */
export class InvalidAgentStateError extends InputError {
  static override readonly code = 'INVALID_AGENT_STATE';

  /** The state file, when the state came from one. */
  readonly file?: string;
  /** JSON path inside the state, e.g. `/nextStep/args/nodeId`. */
  readonly jsonPath: string;

  constructor(options: { jsonPath: string; reason: string; file?: string; cause?: unknown }) {
    const where = options.file === undefined ? 'Agent state' : `Agent state file "${options.file}"`;
    super({
      message:
        `${where} is invalid at ${options.jsonPath || '(root)'}: ${options.reason}. ` +
        'Fix the state by hand (it is plain JSON) or start a new run instead of resuming this one.',
      cause: options.cause,
    });
    this.file = options.file;
    this.jsonPath = options.jsonPath;
  }
}
