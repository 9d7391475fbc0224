import { ProviderError } from './provider.error';

/** Options of {@link ProviderApiError} and its subclasses. */
export interface ProviderApiErrorOptions {
  /** The endpoint that failed, e.g. `http://localhost:11434/v1/chat/completions`. */
  url: string;
  /** HTTP status of the last response; absent when no response arrived. */
  status?: number;
  /** How many HTTP attempts were made (1 + retries). */
  attempts: number;
  /** The server's or the client's explanation. */
  detail?: string;
  /** Replaces the default message (subclasses use it). */
  message?: string;
  cause?: unknown;
}

/**
 * The LLM provider's HTTP API failed (4xx, or 429/5xx after the bounded retries). Names the URL and
 * the status so the user knows which server and which setting to look at.
 */
export class ProviderApiError extends ProviderError {
  static override readonly code: string = 'PROVIDER_API_ERROR';

  /** The endpoint that failed. */
  readonly url: string;
  /** HTTP status of the last response, when one arrived. */
  readonly status?: number;
  /** How many HTTP attempts were made (1 + retries). */
  readonly attempts: number;

  constructor(options: ProviderApiErrorOptions) {
    super({
      message:
        options.message ??
        `The provider at ${options.url} answered HTTP ${options.status ?? '?'} after ${options.attempts} attempt(s)` +
          (options.detail ? `: ${options.detail}` : '') +
          '. ' +
          hint(options.status),
      cause: options.cause,
    });
    this.url = options.url;
    this.status = options.status;
    this.attempts = options.attempts;
  }
}

function hint(status: number | undefined): string {
  if (status === 401 || status === 403) return 'Check OPENAI_API_KEY (or the apiKey option).';
  if (status === 404)
    return 'Check OPENAI_BASE_URL and the model name (IDEACT_MODEL or the model option).';
  if (status === 400 || status === 422)
    return "The server rejected the request; if it does not support json_schema response formats, use mode: 'json_object'.";
  if (status === 429) return 'The server is rate limiting; raise maxRetries or slow down.';
  return 'Check that the server is healthy, or raise maxRetries.';
}
