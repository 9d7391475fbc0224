import { ConfigurationError } from './configuration.error';

/** No message handler rendered a context message (R-REQ-2), so it would silently vanish from the prompt. */
export class UnhandledMessageError extends ConfigurationError {
  static override readonly code = 'UNHANDLED_MESSAGE';

  /** Position of the message in the (merged) context. */
  readonly index: number;
  /** The message's `type`. */
  readonly messageType: string;

  constructor(options: { index: number; messageType: string; handlers: string[] }) {
    super({
      message:
        `No message handler renders context message #${options.index} of type "${options.messageType}" ` +
        `(handlers: ${options.handlers.join(', ') || 'none'}). Register a MessageHandler whose matches() ` +
        'accepts it, or fix the message type (system, text, data, input, state, result).',
    });
    this.index = options.index;
    this.messageType = options.messageType;
  }
}
