import { ModelBehaviorError } from './model-behavior.error';

/** A Call's `_outputPath` is not one of the paths its Tool offers (R-OUT-1). */
export class OutputPathNotAllowedError extends ModelBehaviorError {
  static override readonly code = 'OUTPUT_PATH_NOT_ALLOWED';

  /** The Tool the Call used. */
  readonly toolName: string;
  /** The path the Call chose. */
  readonly path: string;
  /** The paths the Tool allows. */
  readonly allowed: string[];

  constructor(options: { toolName: string; path: string; allowed: string[]; cause?: unknown }) {
    super({
      message:
        `Call of tool "${options.toolName}" writes to \`_outputPath\` "${options.path}", which the tool does not allow ` +
        `(allowed: ${options.allowed.map((path) => `"${path}"`).join(', ')}). Choose one of the allowed paths.`,
      cause: options.cause,
    });
    this.toolName = options.toolName;
    this.path = options.path;
    this.allowed = [...options.allowed];
  }
}
