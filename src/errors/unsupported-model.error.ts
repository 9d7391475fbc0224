import { ConfigurationError } from './configuration.error';

/**
 * `aiSdkProvider` cannot use a model: its specification version is not one ideact supports (`v3` of
 * ai@6's provider packages, `v4` of ai@7's), or a request asks for another model than the provider's
 * and no `modelFor` option says how to create it.
 */
export class UnsupportedModelError extends ConfigurationError {
  static override readonly code = 'UNSUPPORTED_MODEL';

  /** The model at fault (`provider:modelId`, or the name a request asked for). */
  readonly model: string;
  /** What is wrong and how to fix it. */
  readonly reason: string;

  constructor(options: { model: string; reason: string; cause?: unknown }) {
    super({
      message: `aiSdkProvider cannot use the model "${options.model}": ${options.reason}`,
      cause: options.cause,
    });
    this.model = options.model;
    this.reason = options.reason;
  }
}
