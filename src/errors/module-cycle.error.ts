import { InputError } from './input.error';

/** A module (directly or through other modules) calls itself again (R-MOD-5). */
export class ModuleCycleError extends InputError {
  static override readonly code = 'MODULE_CYCLE';

  /** The module ids from the root to the repeated module, e.g. `[a.json, b.json, a.json]`. */
  readonly chain: string[];

  constructor(options: { chain: string[]; cause?: unknown }) {
    super({
      message:
        `Module cycle: ${options.chain.join(' → ')}. ` +
        'A module may not call itself, directly or through other modules; remove the Tool that closes the cycle.',
      cause: options.cause,
    });
    this.chain = [...options.chain];
  }
}
