import { ConfigurationError } from './configuration.error';
import { withPotentialSolutions } from './potential-solutions';

/**
 * A model's provider prefix (`<prefix>:<model>`) names no provider ideact knows, and no
 * OpenAI-compatible server is configured to take the name as is.
 */
export class UnknownModelProviderError extends ConfigurationError {
  static override readonly code = 'UNKNOWN_MODEL_PROVIDER';

  /** The model as given, e.g. `antropic:claude-sonnet-4-5`. */
  readonly model: string;
  /** The prefix before the colon. */
  readonly prefix: string;
  /** The prefixes ideact knows. */
  readonly known: readonly string[];

  constructor(options: { model: string; prefix: string; known: readonly string[] }) {
    super({
      message: withPotentialSolutions(
        `The model "${options.model}" starts with the provider prefix "${options.prefix}", which ideact does not know ` +
          `(known: ${options.known.join(', ')}).`,
        [
          'Fix the prefix, e.g. anthropic:claude-sonnet-4-5 or google:gemini-2.5-flash, and install its package (e.g. npm install @ai-sdk/anthropic).',
          'For a model of an OpenAI-compatible server whose name contains a colon (Ollama: llama3.1:8b), set OPENAI_BASE_URL.',
          'For any other AI SDK provider package, create the model in code and pass provider: aiSdkProvider(model).',
        ],
      ),
    });
    this.model = options.model;
    this.prefix = options.prefix;
    this.known = options.known;
  }
}
