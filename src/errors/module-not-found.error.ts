import { InputError } from './input.error';

/** A module reference names an Idea file that does not exist under the module root. */
export class ModuleNotFoundError extends InputError {
  static override readonly code = 'MODULE_NOT_FOUND';

  /** The module reference as written in `_module` / `_delegate`. */
  readonly path: string;
  /** The absolute file path that was looked up. */
  readonly resolvedPath: string;

  constructor(options: {
    path: string;
    resolvedPath: string;
    /** The field(s) the reference is written in, for the message (default `` `_module` ``). */
    field?: string;
    cause?: unknown;
  }) {
    super({
      message:
        `Module "${options.path}" not found: no file at "${options.resolvedPath}". ` +
        `Create the Idea file there or fix the ${options.field ?? '`_module`'} reference (paths are relative to the module root).`,
      cause: options.cause,
    });
    this.path = options.path;
    this.resolvedPath = options.resolvedPath;
  }
}
