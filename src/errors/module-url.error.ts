import { InputError } from './input.error';

/**
 * A module URL cannot be loaded: scheme other than http(s), host not in `allowedModuleHosts`, timeout,
 * size cap, redirect or an HTTP error (R-MOD-6).
 */
export class ModuleUrlError extends InputError {
  static override readonly code = 'MODULE_URL';

  /** The module URL as written in `_module` / `_delegate`. */
  readonly url: string;

  constructor(options: { url: string; reason: string; fix: string; cause?: unknown }) {
    super({
      message: `Module URL "${options.url}" cannot be loaded: ${options.reason}. ${options.fix}`,
      cause: options.cause,
    });
    this.url = options.url;
  }
}
