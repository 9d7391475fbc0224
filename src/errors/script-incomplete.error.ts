import { ConfigurationError } from './configuration.error';

/** `ScriptedProvider.assertComplete()`: some scripted solutions were never requested. */
export class ScriptIncompleteError extends ConfigurationError {
  static override readonly code = 'SCRIPT_INCOMPLETE';

  /** How many entries the script holds. */
  readonly scripted: number;
  /** How many were used. */
  readonly used: number;

  constructor(options: { scripted: number; used: number }) {
    super({
      message:
        `ScriptedProvider: only ${options.used} of ${options.scripted} scripted solution(s) were requested ` +
        `(entries #${options.used}..#${options.scripted - 1} unused). The code under test made fewer requests ` +
        'than expected; inspect provider.requests, or remove the unused entries.',
    });
    this.scripted = options.scripted;
    this.used = options.used;
  }
}
