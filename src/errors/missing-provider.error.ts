import { ConfigurationError } from './configuration.error';
import { withPotentialSolutions } from './potential-solutions';

/**
 * No LLM provider was given and none is configured by the environment (`OPENAI_API_KEY` /
 * `OPENAI_BASE_URL`). ideact never falls back to a fake provider on its own, so this fails loudly.
 */
export class MissingProviderError extends ConfigurationError {
  static override readonly code = 'MISSING_PROVIDER';

  /** What needed the provider, e.g. `createAgent()` or `createDefaultProvider()`. */
  readonly where: string;
  /** The choices the message lists, one per entry. */
  readonly solutions: readonly string[];

  constructor(options: { where: string; cause?: unknown }) {
    const solutions = [
      'Set OPENAI_API_KEY in the environment (or OPENAI_BASE_URL for a local OpenAI-compatible server such as Ollama) to use OpenAI.',
      "Pass `provider: new OpenAIProvider({ apiKey, model: 'gpt-4.1-mini' })` (or any other Provider) in the config.",
      'For demos and smoke tests without a model, pass `provider: new OfflineProvider()` explicitly (its answers are placeholders, not a model).',
    ];
    super({
      message: withPotentialSolutions(
        `${options.where} has no LLM provider: no \`provider\` was given and neither OPENAI_API_KEY nor OPENAI_BASE_URL is set. ` +
          'ideact does not fall back to the offline provider on its own (it would answer with placeholders).',
        solutions,
      ),
      cause: options.cause,
    });
    this.where = options.where;
    this.solutions = solutions;
  }
}
