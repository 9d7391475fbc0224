import { ModelBehaviorError } from './model-behavior.error';

/** The reply was cut off at the token limit (`finish_reason: length`), so its JSON is incomplete. */
export class TruncatedResponseError extends ModelBehaviorError {
  static override readonly code = 'TRUNCATED_RESPONSE';

  /** The partial text the model produced before it was cut off. */
  readonly rawText: string;

  constructor(options: { rawText: string; model?: string; cause?: unknown }) {
    super({
      message:
        `The reply of model${options.model ? ` "${options.model}"` : ''} was cut off at the token limit ` +
        `after ${options.rawText.length} characters (finish_reason "length"). ` +
        'Raise the output token limit (OpenAIProvider maxOutputTokens, or the server’s own limit), or ask for a smaller solution (shorter strings, fewer items). ' +
        'The partial text is in error.rawText.',
      cause: options.cause,
    });
    this.rawText = options.rawText;
  }
}
