import type { ValidationIssue } from './validation-issue';
import { formatIssues } from './validation-issue';
import { ModelBehaviorError } from './model-behavior.error';

/** An inline latent Call's `_output` is missing or does not match the Tool's `_output` schema (R-CALL-2). */
export class InvalidCallOutputError extends ModelBehaviorError {
  static override readonly code = 'INVALID_CALL_OUTPUT';

  /** The Tool the Call used. */
  readonly toolName: string;
  /** What is wrong with `_output` (empty when it is missing). */
  readonly issues: ValidationIssue[];

  constructor(options: { toolName: string; issues: ValidationIssue[]; cause?: unknown }) {
    const problem =
      options.issues.length === 0
        ? 'has no `_output`'
        : `has an \`_output\` that does not match the Tool's \`_output\` schema:\n${formatIssues(options.issues)}`;
    super({
      message: `Call of tool "${options.toolName}" ${problem}\nFill \`_output\` in the Call so that it matches the schema.`,
      cause: options.cause,
    });
    this.toolName = options.toolName;
    this.issues = options.issues;
  }
}
