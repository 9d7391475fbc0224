import { ExecutionError } from './execution.error';

/**
 * A Call needs a person's approval (its Tool's `needsApproval`, or an approval predicate) and the
 * entry point could not ask anyone, so it did not run: e.g. an MCP client that did not declare the
 * `elicitation` capability. Never thrown out of a run: it is the Call's result error.
 */
export class ApprovalRequiredError extends ExecutionError {
  static override readonly code = 'APPROVAL_REQUIRED';

  /** The tool of the Call that was not run. */
  readonly toolName: string;
  /** Why nobody could be asked. */
  readonly reason: string;

  constructor(options: {
    toolName: string;
    reason: string;
    solutions?: string[];
    cause?: unknown;
  }) {
    const solutions = options.solutions ?? [];
    super({
      message:
        `The tool "${options.toolName}" needs approval before it runs, so it was not run: ${options.reason}.` +
        (solutions.length === 0 ? '' : ` ${solutions.join(' ')}`),
      cause: options.cause,
    });
    this.toolName = options.toolName;
    this.reason = options.reason;
  }
}
