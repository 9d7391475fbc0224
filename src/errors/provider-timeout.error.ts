import { ProviderApiError } from './provider-api.error';

/** The provider did not answer within `timeoutMs`, on every one of the bounded attempts. */
export class ProviderTimeoutError extends ProviderApiError {
  static override readonly code: string = 'PROVIDER_TIMEOUT';

  /** The per-attempt timeout in milliseconds. */
  readonly timeoutMs: number;

  constructor(options: { url: string; attempts: number; timeoutMs: number; cause?: unknown }) {
    super({
      ...options,
      message:
        `The provider at ${options.url} did not answer within ${options.timeoutMs} ms ` +
        `(${options.attempts} attempt(s)). Raise timeoutMs, use a faster model, or check the server load.`,
    });
    this.timeoutMs = options.timeoutMs;
  }
}
