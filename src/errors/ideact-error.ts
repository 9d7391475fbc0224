const MARKER = Symbol.for('ideact.error');

/** Who is at fault for an error; tells a user where to look first. */
export type ErrorFault =
  /** The developer's configuration, declarations or files. */
  | 'configuration'
  /** The model's output (invalid JSON, schema violations, refusals). */
  | 'model'
  /** The LLM provider or the network. */
  | 'provider'
  /** A call or a run at execution time (activities, references, limits). */
  | 'runtime';

/** Options every ideact error takes; subclasses add typed fields of their own. */
export interface IdeactErrorOptions {
  /** Human-readable explanation that names what is at fault and how to fix it. */
  message: string;
  /** The underlying error, kept for debugging. */
  cause?: unknown;
}

/**
 * Base class of every error ideact throws. `code` is stable across versions (match on it, not on
 * the message); `isInstance()` works across duplicate installs because it checks a global marker.
 */
export class IdeactError extends Error {
  /** Stable machine-readable code of this error class; subclasses override it. */
  static readonly code: string = 'IDEACT_ERROR';
  /** Who is at fault; subclasses override it. */
  static readonly fault: ErrorFault = 'runtime';

  /** Stable machine-readable code, e.g. `UNRESOLVED_REFERENCE`. */
  readonly code: string;
  /** Who is at fault: configuration, model, provider or runtime. */
  readonly fault: ErrorFault;
  constructor(options: IdeactErrorOptions) {
    super(options.message, options.cause === undefined ? undefined : { cause: options.cause });
    const constructor = new.target as typeof IdeactError;
    this.name = constructor.name;
    this.code = constructor.code;
    this.fault = constructor.fault;
    Object.defineProperty(this, MARKER, { value: true, enumerable: false });
  }

  /**
   * True when `error` is an ideact error of this class (by marker and code, so it also holds for
   * errors thrown by another copy of the package). On `IdeactError` itself: any ideact error.
   */
  static isInstance<T extends IdeactError>(
    this: (abstract new (...args: never[]) => T) & { readonly code: string },
    error: unknown,
  ): error is T {
    if (typeof error !== 'object' || error === null) return false;
    if ((error as { [MARKER]?: unknown })[MARKER] !== true) return false;
    if ((this as unknown) === IdeactError) return true;
    if ((error as { code?: unknown }).code === this.code) return true;
    return error instanceof this;
  }

  /** The `{ code, message }` pair a `result` message carries to the LLM. */
  toCallError(): { code: string; message: string } {
    return { code: this.code, message: this.message };
  }
}
