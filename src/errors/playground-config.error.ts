import { ConfigurationError } from './configuration.error';

/**
 * `ideact dev --config FILE` could not be used: the module does not load, or exports neither a
 * container (`createContainer(...)`) nor a configuration (`{ tools: [...] }`).
 */
export class PlaygroundConfigError extends ConfigurationError {
  static override readonly code = 'PLAYGROUND_CONFIG';

  /** The config module as given. */
  readonly file: string;
  /** What is wrong with it. */
  readonly reason: string;

  constructor(options: { file: string; reason: string; cause?: unknown }) {
    super({
      message:
        `The playground config ${options.file} cannot be used: ${options.reason}. ` +
        'Export a container (`module.exports = createContainer({ tools: [...] })`) or a configuration ' +
        '(`module.exports = { tools: [...], activities: [...] }`, also as `default`).',
      cause: options.cause,
    });
    this.file = options.file;
    this.reason = options.reason;
  }
}
