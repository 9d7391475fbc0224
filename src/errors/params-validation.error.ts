import { InvalidParamsError } from './invalid-params.error';
import type { ValidationIssue } from './validation-issue';

/**
 * One failing param of a class-declared tool: its dotted property path, the constraint messages,
 * and `message` (them joined), so it is also a {@link ValidationIssue}.
 */
export interface ParamsValidationIssue extends ValidationIssue {
  /** Dotted property path into the params, e.g. `location.lat` or `stops.0.city`. */
  path: string;
  /** class-validator's messages for the failed constraints, e.g. `days must not be greater than 14`. */
  messages: string[];
}

/**
 * The params of an explicit Call do not satisfy the constraints of the tool's `@Tool` class (checked
 * before its Activity runs). A kind of {@link InvalidParamsError}; its own code stays because it is
 * public. The Call fails with this error as its `result`, so the LLM can fix it.
 */
export class ParamsValidationError extends InvalidParamsError {
  static override readonly code = 'PARAMS_VALIDATION';

  /** Every failing property with its constraint messages. */
  declare readonly issues: readonly ParamsValidationIssue[];

  constructor(options: {
    toolName: string;
    issues: ReadonlyArray<Omit<ParamsValidationIssue, 'message'> & { message?: string }>;
    cause?: unknown;
  }) {
    const issues = options.issues.map((issue) => ({
      path: issue.path,
      messages: issue.messages,
      message: issue.message ?? issue.messages.join('; '),
    }));
    const lines = issues.map((issue) => `- ${issue.path}: ${issue.message}`);
    super({
      toolName: options.toolName,
      issues,
      message:
        `Invalid params for tool "${options.toolName}":\n${lines.join('\n')}\n` +
        `Fix these params so that they match the tool's schema and call "${options.toolName}" again.`,
      cause: options.cause,
    });
  }

  /** Each constraint message with its property path as a JSON Pointer (`stops.0.city` → `/stops/0/city`). */
  override pointerIssues(): ValidationIssue[] {
    return this.issues.flatMap((issue) =>
      issue.messages.map((message) => ({ path: pointerOf(issue.path), message })),
    );
  }
}

/** A dotted property path as a JSON Pointer; `(params)` (the params themselves) is the root. */
function pointerOf(path: string): string {
  if (path === '(params)') return '';
  return path
    .split('.')
    .map((segment) => `/${segment.replace(/~/g, '~0').replace(/\//g, '~1')}`)
    .join('');
}
