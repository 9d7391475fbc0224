import { ModelBehaviorError } from './model-behavior.error';

/** A Call names a Tool that is not offered (typically the model invented or misspelled a name). */
export class UnknownToolError extends ModelBehaviorError {
  static override readonly code = 'UNKNOWN_TOOL';

  /** The `_tool` value the Call used. */
  readonly toolName: string;
  /** The names of the Tools that are offered. */
  readonly knownTools: string[];
  /** JSON Pointer of the Call in a Vessel solution (e.g. `/calls/2`), when known. */
  readonly jsonPath?: string;

  constructor(options: {
    toolName: string;
    knownTools: readonly string[];
    jsonPath?: string;
    cause?: unknown;
  }) {
    const where = options.jsonPath === undefined ? '' : ` at ${options.jsonPath}`;
    const known = options.knownTools.length === 0 ? '(none)' : options.knownTools.join(', ');
    super({
      message:
        `Unknown tool "${options.toolName}"${where}. Known tools: ${known}. ` +
        'Use one of the known tool names in "_tool".',
      cause: options.cause,
    });
    this.toolName = options.toolName;
    this.knownTools = [...options.knownTools];
    this.jsonPath = options.jsonPath;
  }
}
