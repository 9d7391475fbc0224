import { ConfigurationError } from './configuration.error';

/** A ScriptedProvider got more requests than solutions were scripted. */
export class ScriptExhaustedError extends ConfigurationError {
  static override readonly code = 'SCRIPT_EXHAUSTED';

  /** How many entries the script holds. */
  readonly scripted: number;

  constructor(options: { scripted: number; lastMessage?: string }) {
    super({
      message:
        `ScriptedProvider got request #${options.scripted + 1} but only ${options.scripted} solution(s) were scripted` +
        (options.lastMessage ? ` (last message: "${options.lastMessage}")` : '') +
        '. Add entries to the script, or check why the code under test makes more requests than expected ' +
        '(inspect provider.requests).',
    });
    this.scripted = options.scripted;
  }
}
