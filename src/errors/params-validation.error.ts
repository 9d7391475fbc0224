import { ModelBehaviorError } from './model-behavior.error';

/** One failing param of a class-declared tool: its property path and the constraint messages. */
export interface ParamsValidationIssue {
  /** Dotted property path into the params, e.g. `location.lat` or `stops.0.city`. */
  path: string;
  /** class-validator's messages for the failed constraints, e.g. `days must not be greater than 14`. */
  messages: string[];
}

/**
 * The params of an explicit Call do not satisfy the class-validator constraints of the tool's class
 * (checked before its Activity runs). The Call fails with this error as its `result`, so the LLM can fix it.
 */
export class ParamsValidationError extends ModelBehaviorError {
  static override readonly code = 'PARAMS_VALIDATION';

  /** The tool whose params are invalid. */
  readonly toolName: string;
  /** Every failing property with its constraint messages. */
  readonly issues: readonly ParamsValidationIssue[];

  constructor(options: {
    toolName: string;
    issues: readonly ParamsValidationIssue[];
    cause?: unknown;
  }) {
    const lines = options.issues.map((issue) => `- ${issue.path}: ${issue.messages.join('; ')}`);
    super({
      message:
        `Invalid params for tool "${options.toolName}":\n${lines.join('\n')}\n` +
        `Fix these params so that they match the tool's schema and call "${options.toolName}" again.`,
      cause: options.cause,
    });
    this.toolName = options.toolName;
    this.issues = options.issues;
  }
}
