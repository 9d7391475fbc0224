import { ConfigurationError } from './configuration.error';

/**
 * `createRunHandler(source, options)` or `ideact serve` was given something it cannot serve: a
 * source that is neither an agent, a container nor `{ ideasDir | agent | container }`, an option out
 * of range, or a public host without authentication (issue 32).
 */
export class RunHandlerConfigError extends ConfigurationError {
  static override readonly code = 'RUN_HANDLER_CONFIG';

  /** The source or option at fault (`source`, `options.maxBodyBytes`, `--host`…). */
  readonly setting: string;
  /** What is wrong with it and how to fix it. */
  readonly reason: string;

  constructor(options: { setting: string; reason: string; cause?: unknown }) {
    super({
      message: `The run handler cannot use ${options.setting}: ${options.reason}. See docs/serve.md.`,
      cause: options.cause,
    });
    this.setting = options.setting;
    this.reason = options.reason;
  }
}
