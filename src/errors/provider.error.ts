import { IdeactError, type ErrorFault } from './ideact-error';

/**
 * Group: the LLM provider or the network failed (HTTP errors, timeouts, unreachable, missing key).
 * Catch this to handle the whole group: `ProviderError.isInstance(error)` holds for every error in it.
 */
export abstract class ProviderError extends IdeactError {
  static override readonly code: string = 'PROVIDER_ERROR';
  static override readonly fault: ErrorFault = 'provider';
}
