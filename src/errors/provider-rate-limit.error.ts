import { ProviderApiError } from './provider-api.error';

/**
 * The provider answered HTTP 429 (rate limited) on every one of the bounded attempts. `retryAfterMs`
 * is the wait the server asked for (`retry-after-ms` / `Retry-After`), so a caller can schedule the
 * next try instead of guessing.
 */
export class ProviderRateLimitError extends ProviderApiError {
  static override readonly code: string = 'PROVIDER_RATE_LIMITED';

  /** How long the server asked to wait before the next request, when it said (milliseconds). */
  readonly retryAfterMs?: number;

  constructor(options: {
    url: string;
    attempts: number;
    retryAfterMs?: number;
    detail?: string;
    cause?: unknown;
  }) {
    const wait =
      options.retryAfterMs === undefined
        ? 'The server did not say how long to wait.'
        : `The server asks to wait ${options.retryAfterMs} ms (retryAfterMs).`;
    super({
      url: options.url,
      status: 429,
      attempts: options.attempts,
      detail: options.detail,
      cause: options.cause,
      message:
        `The provider at ${options.url} is rate limiting (HTTP 429) after ${options.attempts} attempt(s)` +
        (options.detail ? `: ${options.detail}` : '') +
        `. ${wait} Slow down, raise maxRetries, or ask the vendor for a higher limit.`,
    });
    if (options.retryAfterMs !== undefined) this.retryAfterMs = options.retryAfterMs;
  }
}
