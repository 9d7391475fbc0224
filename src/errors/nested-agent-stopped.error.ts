import { ExecutionError } from './execution.error';

/**
 * A nested agent (a module whose schema offers tools, R-MOD-5) stopped without finishing: a limit, an
 * abort or an error. The module Call fails with this error, so the parent LLM sees it as a result.
 */
export class NestedAgentStoppedError extends ExecutionError {
  static override readonly code = 'NESTED_AGENT_STOPPED';

  /** The module ids from the root agent to the nested one. */
  readonly chain: string[];
  /** Why the nested run stopped (`max_turns`, `max_tokens`, `max_time`, `aborted`, `error`). */
  readonly reason: string;

  constructor(options: { chain: string[]; reason: string; detail?: string; cause?: unknown }) {
    super({
      message:
        `The nested agent of module ${options.chain.join(' → ')} stopped without an output (${options.reason}` +
        `${options.detail ? `: ${options.detail}` : ''}). ` +
        'Raise `nestedLimits` in the agent config, simplify the module task, or call the module with clearer params.',
      cause: options.cause,
    });
    this.chain = [...options.chain];
    this.reason = options.reason;
  }
}
