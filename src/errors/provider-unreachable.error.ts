import { ProviderApiError } from './provider-api.error';

/** No connection to the provider could be made (refused, DNS, reset) after the bounded retries. */
export class ProviderUnreachableError extends ProviderApiError {
  static override readonly code: string = 'PROVIDER_UNREACHABLE';

  constructor(options: { url: string; attempts: number; detail?: string; cause?: unknown }) {
    super({
      ...options,
      message:
        `Cannot reach the provider at ${options.url} after ${options.attempts} attempt(s)` +
        (options.detail ? ` (${options.detail})` : '') +
        '. Check that the server is running and that OPENAI_BASE_URL (or the baseURL option) is right.',
    });
  }
}
