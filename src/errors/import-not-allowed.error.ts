import { ModelBehaviorError } from './model-behavior.error';

/**
 * A Call asks (`_imports`) for a message kind its Tool does not offer in the `_imports` enum, or
 * writes `_imports` as something other than a list of kinds (R-IMP-1).
 */
export class ImportNotAllowedError extends ModelBehaviorError {
  static override readonly code = 'IMPORT_NOT_ALLOWED';

  /** The Tool the Call used. */
  readonly toolName: string;
  /** The kinds that are not allowed. */
  readonly kinds: string[];
  /** The kinds the Tool allows. */
  readonly allowed: string[];
  /** The `_imports` value as the Call wrote it, when it is not a list of kinds (e.g. `"notes"`). */
  readonly written?: unknown;

  constructor(options: {
    toolName: string;
    kinds: string[];
    allowed: string[];
    /** Set when `_imports` is not a list of kind names: the value as written. */
    written?: unknown;
    cause?: unknown;
  }) {
    const allowed = options.allowed.map((kind) => `"${kind}"`).join(', ') || '(none)';
    const suggested =
      options.kinds.find((kind) => options.allowed.includes(kind)) ?? options.allowed[0];
    const example = JSON.stringify(suggested === undefined ? [] : [suggested]);
    super({
      message:
        'written' in options
          ? `Call of tool "${options.toolName}" writes "_imports": ${JSON.stringify(options.written) ?? String(options.written)}, ` +
            `but _imports must be a list of kind names (allowed: ${allowed}). ` +
            `Write it as a list, e.g. "_imports": ${example}.`
          : `Call of tool "${options.toolName}" imports ${options.kinds.map((kind) => `"${kind}"`).join(', ')}, ` +
            `not allowed by the tool (allowed: ${allowed}). ` +
            'Choose `_imports` only from the allowed kinds.',
      cause: options.cause,
    });
    this.toolName = options.toolName;
    this.kinds = [...options.kinds];
    this.allowed = [...options.allowed];
    if ('written' in options) this.written = options.written;
  }
}
