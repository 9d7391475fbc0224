import { IdeactError, type ErrorFault } from './ideact-error';

/**
 * Group: the developer's code, declarations or configuration must change (a decorator, the container, an Activity, a script).
 * Catch this to handle the whole group: `ConfigurationError.isInstance(error)` holds for every error in it.
 */
export abstract class ConfigurationError extends IdeactError {
  static override readonly code: string = 'CONFIGURATION_ERROR';
  static override readonly fault: ErrorFault = 'configuration';
}
