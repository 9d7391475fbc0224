import type { ValidationIssue } from './validation-issue';
import { formatIssues } from './validation-issue';
import { ModelBehaviorError } from './model-behavior.error';

/**
 * A Call's params (after `†` resolution) do not match the Tool's params. The one class for invalid
 * params: `ParamsValidationError` (a `@Tool` class's constraints) is its subclass, so
 * `InvalidParamsError.isInstance(error)` catches both.
 */
export class InvalidParamsError extends ModelBehaviorError {
  static override readonly code: string = 'INVALID_PARAMS';

  /** The Tool the Call used. */
  readonly toolName: string;
  /** Each param that is wrong: where it is in the params and the reason. */
  readonly issues: readonly ValidationIssue[];

  constructor(options: {
    toolName: string;
    issues: readonly ValidationIssue[];
    /** Replaces the default message (subclasses use it). */
    message?: string;
    cause?: unknown;
  }) {
    super({
      message:
        options.message ??
        `Invalid params for tool "${options.toolName}":\n${formatIssues(options.issues)}\n` +
          'Call the tool again with params that match its schema.',
      cause: options.cause,
    });
    this.toolName = options.toolName;
    this.issues = options.issues;
  }

  /**
   * The issues with JSON Pointer paths (`/address/city`, `''` for the params themselves), one per
   * message: the shape entry points report (MCP results, the playground), whichever kind found them.
   */
  pointerIssues(): ValidationIssue[] {
    return this.issues.map(({ path, message }) => ({ path, message }));
  }
}
