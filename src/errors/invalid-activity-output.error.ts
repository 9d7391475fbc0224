import type { ValidationIssue } from './validation-issue';
import { formatIssues } from './validation-issue';
import { ConfigurationError } from './configuration.error';

/** An Activity returned a value that does not match the `_output` schema its Tool declares. */
export class InvalidActivityOutputError extends ConfigurationError {
  static override readonly code = 'INVALID_ACTIVITY_OUTPUT';

  /** The Tool the Call used. */
  readonly toolName: string;
  /** The Activity that produced the value. */
  readonly activity: string;
  /** What is wrong with the returned value. */
  readonly issues: ValidationIssue[];

  constructor(options: {
    toolName: string;
    activity: string;
    issues: ValidationIssue[];
    /** What is wrong besides the schema (e.g. nested too deeply); default: it does not match `_output`. */
    problem?: string;
    cause?: unknown;
  }) {
    const problem = options.problem ?? "does not match the tool's `_output` schema";
    const fix =
      options.problem === undefined
        ? "the Activity or the tool's `_output` schema"
        : 'the Activity';
    super({
      message:
        `Activity "${options.activity}" of tool "${options.toolName}" returned a value that ${problem}:\n` +
        `${formatIssues(options.issues)}\nFix ${fix}.`,
      cause: options.cause,
    });
    this.toolName = options.toolName;
    this.activity = options.activity;
    this.issues = options.issues;
  }
}
