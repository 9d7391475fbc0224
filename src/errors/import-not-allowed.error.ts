import { ModelBehaviorError } from './model-behavior.error';

/** A Call asks (`_imports`) for a message kind its Tool does not offer in the `_imports` enum (R-IMP-1). */
export class ImportNotAllowedError extends ModelBehaviorError {
  static override readonly code = 'IMPORT_NOT_ALLOWED';

  /** The Tool the Call used. */
  readonly toolName: string;
  /** The kinds that are not allowed. */
  readonly kinds: string[];
  /** The kinds the Tool allows. */
  readonly allowed: string[];

  constructor(options: { toolName: string; kinds: string[]; allowed: string[]; cause?: unknown }) {
    super({
      message:
        `Call of tool "${options.toolName}" imports ${options.kinds.map((kind) => `"${kind}"`).join(', ')}, ` +
        `not allowed by the tool (allowed: ${options.allowed.map((kind) => `"${kind}"`).join(', ') || '(none)'}). ` +
        'Choose `_imports` only from the allowed kinds.',
      cause: options.cause,
    });
    this.toolName = options.toolName;
    this.kinds = [...options.kinds];
    this.allowed = [...options.allowed];
  }
}
