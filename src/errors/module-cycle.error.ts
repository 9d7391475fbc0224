import { IdeactError } from './ideact-error';

/** A module (directly or through other modules) calls itself again (R-MOD-5). */
export class ModuleCycleError extends IdeactError {
  static override readonly code = 'MODULE_CYCLE';
  static override readonly fault = 'configuration' as const;

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
