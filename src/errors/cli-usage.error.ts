import { InputError } from './input.error';

/**
 * The `ideact` command was called with a bad argument value (e.g. `--input` that is not JSON, a
 * `--max-turns` that is not a positive integer). The CLI prints the message and exits with code 2.
 */
export class CliUsageError extends InputError {
  static override readonly code = 'CLI_USAGE';

  /** The option or argument at fault, e.g. `--input`. */
  readonly option: string;

  constructor(options: { option: string; reason: string; fix: string; cause?: unknown }) {
    super({
      message: `${options.option}: ${options.reason}. ${options.fix}`,
      cause: options.cause,
    });
    this.option = options.option;
  }
}
