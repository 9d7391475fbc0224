/**
 * The base class of every ideact error. Each error class lives in its own file
 * (`src/errors/<name>.error.ts`) with the same shape on purpose: `static override readonly code` and
 * `fault`, typed readonly fields, an options object with `cause`, and a message that says how to fix
 * it. One small class per file keeps every code greppable and checked against docs/errors.md, so the
 * look-alike constructors across these files are deliberate, not duplication to factor out.
 */

/**
 * The brand every ideact error carries, registered globally (`Symbol.for`) so that two copies of the
 * package recognise each other's errors. Its value is the lineage: the codes of the error's class and
 * of every ideact parent class, e.g. `['INVALID_VESSEL', 'MODEL_BEHAVIOR', 'IDEACT_ERROR']`.
 */
const BRAND = Symbol.for('ideact.error');

/** Who must act on an error; tells a user where to look first. */
export type ErrorFault =
  /** The developer's code, declarations or configuration. */
  | 'configuration'
  /** The user's input: Idea files, state files, command-line arguments. */
  | 'input'
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
 * the message); `isInstance()` works across duplicate installs and for parent classes because it
 * checks a global brand that lists the codes of the error's class lineage.
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
    Object.defineProperty(this, BRAND, { value: lineageOf(constructor), enumerable: false });
  }

  /**
   * True when `error` is an ideact error of this class or of a subclass, by the brand's lineage of
   * codes, so it also holds for errors thrown by another copy of the package and for group parents
   * (`ModelBehaviorError.isInstance(invalidVessel)`). On `IdeactError` itself: any ideact error.
   */
  static isInstance<T extends IdeactError>(
    this: (abstract new (...args: never[]) => T) & { readonly code: string },
    error: unknown,
  ): error is T {
    if (typeof error !== 'object' || error === null) return false;
    const lineage = (error as { [BRAND]?: unknown })[BRAND];
    if (Array.isArray(lineage)) return lineage.includes(this.code);
    // Copies of ideact before 0.2 branded errors with `true` and no lineage: match the code only.
    if (lineage !== true) return false;
    return (this as unknown) === IdeactError || (error as { code?: unknown }).code === this.code;
  }

  /** The `{ code, message }` pair a `result` message carries to the LLM. */
  toCallError(): { code: string; message: string } {
    return { code: this.code, message: this.message };
  }
}

/** Codes of `constructor` and of its ideact parents, cached per class (computed once). */
const lineages = new WeakMap<typeof IdeactError, readonly string[]>();
function lineageOf(constructor: typeof IdeactError): readonly string[] {
  let lineage = lineages.get(constructor);
  if (lineage === undefined) {
    const codes: string[] = [];
    for (
      let current: unknown = constructor;
      typeof current === 'function' &&
      (current === IdeactError || current.prototype instanceof IdeactError);
      current = Object.getPrototypeOf(current)
    ) {
      const code = (current as typeof IdeactError).code;
      if (!codes.includes(code)) codes.push(code);
    }
    lineage = Object.freeze(codes);
    lineages.set(constructor, lineage);
  }
  return lineage;
}
