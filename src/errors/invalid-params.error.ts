import type { ValidationIssue } from './validation-issue';
import { formatIssues } from './validation-issue';
import { ModelBehaviorError } from './model-behavior.error';

/** An explicit Call's params (after `†` resolution) do not match the Tool's params schema. */
export class InvalidParamsError extends ModelBehaviorError {
  static override readonly code = 'INVALID_PARAMS';

  /** The Tool the Call used. */
  readonly toolName: string;
  /** Each param that is wrong: JSON Pointer into the params and the reason. */
  readonly issues: ValidationIssue[];

  constructor(options: { toolName: string; issues: ValidationIssue[]; cause?: unknown }) {
    super({
      message:
        `Invalid params for tool "${options.toolName}":\n${formatIssues(options.issues)}\n` +
        'Call the tool again with params that match its schema.',
      cause: options.cause,
    });
    this.toolName = options.toolName;
    this.issues = options.issues;
  }
}
