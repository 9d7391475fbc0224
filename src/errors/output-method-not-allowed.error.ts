import { ModelBehaviorError } from './model-behavior.error';

/**
 * A Call's `_outputMethod` is not one its Tool lets the model choose, or not an output method at all
 * (R-OUT-4). Fed back to the model like a wrong `_outputPath`.
 */
export class OutputMethodNotAllowedError extends ModelBehaviorError {
  static override readonly code = 'OUTPUT_METHOD_NOT_ALLOWED';

  /** The Tool the Call used. */
  readonly toolName: string;
  /** The method the Call wrote, as written (a non-string is shown as JSON). */
  readonly method: string;
  /** The methods the Tool allows. */
  readonly allowed: string[];

  constructor(options: { toolName: string; method: string; allowed: string[]; cause?: unknown }) {
    super({
      message:
        `Call of tool "${options.toolName}" writes its output with \`_outputMethod\` "${options.method}", ` +
        `which the tool does not allow (allowed: ${options.allowed.map((method) => `"${method}"`).join(', ')}). ` +
        'Choose one of the allowed methods, or leave it out to use the default.',
      cause: options.cause,
    });
    this.toolName = options.toolName;
    this.method = options.method;
    this.allowed = [...options.allowed];
  }
}
