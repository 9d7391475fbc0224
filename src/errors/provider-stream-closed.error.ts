import { ConfigurationError } from './configuration.error';

/** `ProviderStream.response()` was asked for after the stream was closed early (a `break` out of it). */
export class ProviderStreamClosedError extends ConfigurationError {
  static override readonly code = 'PROVIDER_STREAM_CLOSED';

  /** The provider whose stream was closed, when known. */
  readonly provider?: string;

  constructor(options: { provider?: string; cause?: unknown } = {}) {
    super({
      message:
        `The stream of provider ${options.provider ? `"${options.provider}"` : '(unnamed)'} was closed before it ` +
        'finished, so it has no response. Read the stream to its end (do not `break` out of the loop) before ' +
        'calling response(), or call response() alone to read it through.',
      cause: options.cause,
    });
    this.provider = options.provider;
  }
}
