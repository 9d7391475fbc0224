import { ModelBehaviorError } from './model-behavior.error';

/**
 * A Call asks (`_imports` / `_scopes`) for a message kind its Tool does not offer in that field's
 * enum, or writes the field as something other than a list of kinds (R-IMP-1, R-SCOPE-1).
 */
export class ImportNotAllowedError extends ModelBehaviorError {
  static override readonly code = 'IMPORT_NOT_ALLOWED';

  /** The Tool the Call used. */
  readonly toolName: string;
  /** The kinds that are not allowed. */
  readonly kinds: string[];
  /** The kinds the Tool allows. */
  readonly allowed: string[];
  /** The value as the Call wrote it, when it is not a list of kinds (e.g. `"notes"`). */
  readonly written?: unknown;
  /** The field the Call wrote: `_imports` (seeds) or `_scopes` (newer revision). */
  readonly field: string;

  constructor(options: {
    toolName: string;
    kinds: string[];
    allowed: string[];
    /** Set when the field is not a list of kind names: the value as written. */
    written?: unknown;
    /** The field name the Call wrote (default `_imports`); messages use it. */
    field?: string;
    cause?: unknown;
  }) {
    const field = options.field ?? '_imports';
    const allowed = options.allowed.map((kind) => `"${kind}"`).join(', ') || '(none)';
    const suggested =
      options.kinds.find((kind) => options.allowed.includes(kind)) ?? options.allowed[0];
    const example = JSON.stringify(suggested === undefined ? [] : [suggested]);
    super({
      message:
        'written' in options
          ? `Call of tool "${options.toolName}" writes "${field}": ${JSON.stringify(options.written) ?? String(options.written)}, ` +
            `but ${field} must be a list of kind names (allowed: ${allowed}). ` +
            `Write it as a list, e.g. "${field}": ${example}.`
          : `Call of tool "${options.toolName}" imports ${options.kinds.map((kind) => `"${kind}"`).join(', ')}, ` +
            `not allowed by the tool (allowed: ${allowed}). ` +
            `Choose \`${field}\` only from the allowed kinds.`,
      cause: options.cause,
    });
    this.toolName = options.toolName;
    this.kinds = [...options.kinds];
    this.allowed = [...options.allowed];
    this.field = field;
    if ('written' in options) this.written = options.written;
  }
}
