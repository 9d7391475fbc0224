import { ExecutionError } from './execution.error';

/** A `†kind.path` reference in a Call's params could not be resolved from the context (R-VAR-1). */
export class UnresolvedReferenceError extends ExecutionError {
  static override readonly code = 'UNRESOLVED_REFERENCE';

  /** The reference expression as written, e.g. `†state.user.city || †input.city`. */
  readonly reference: string;
  /** The instance the reference was resolved for, if any. */
  readonly instance?: string;

  constructor(options: { reference: string; instance?: string; reason?: string; cause?: unknown }) {
    const where = options.instance === undefined ? '' : ` in instance "${options.instance}"`;
    super({
      message:
        `Cannot resolve reference "${options.reference}"${where}` +
        (options.reason ? `: ${options.reason}` : '') +
        '. Add a data message of that kind holding the path, or fix the reference.',
      cause: options.cause,
    });
    this.reference = options.reference;
    this.instance = options.instance;
  }
}
