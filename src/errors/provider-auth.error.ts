import { ProviderApiError } from './provider-api.error';

/**
 * The provider rejected the credentials (HTTP 401 or 403). Names the environment variable the key is
 * read from, so the fix is one line.
 */
export class ProviderAuthError extends ProviderApiError {
  static override readonly code: string = 'PROVIDER_AUTH_FAILED';

  /** The variable the provider package reads its key from (e.g. `ANTHROPIC_API_KEY`), when known. */
  readonly keyVariable?: string;

  constructor(options: {
    url: string;
    status: number;
    attempts: number;
    keyVariable?: string;
    detail?: string;
    cause?: unknown;
  }) {
    const where =
      options.keyVariable === undefined
        ? 'the API key given to the provider package'
        : `${options.keyVariable} (or the apiKey option of the provider package)`;
    super({
      url: options.url,
      status: options.status,
      attempts: options.attempts,
      detail: options.detail,
      cause: options.cause,
      message:
        `The provider at ${options.url} rejected the credentials (HTTP ${options.status})` +
        (options.detail ? `: ${options.detail}` : '') +
        `. Check ${where}, and that the key may use this model.`,
    });
    if (options.keyVariable !== undefined) this.keyVariable = options.keyVariable;
  }
}
