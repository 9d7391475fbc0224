import { ModelBehaviorError } from './model-behavior.error';

/** The model refused to answer (OpenAI's `message.refusal`); retrying the same request rarely helps. */
export class RefusalError extends ModelBehaviorError {
  static override readonly code = 'REFUSAL';

  /** The model's refusal text. */
  readonly refusal: string;

  constructor(options: { refusal: string; model?: string; cause?: unknown }) {
    super({
      message:
        `The model${options.model ? ` "${options.model}"` : ''} refused the request: "${options.refusal}". ` +
        'Rephrase the task or the context so that it is within the model provider’s usage policy.',
      cause: options.cause,
    });
    this.refusal = options.refusal;
  }
}
