import { ConfigurationError } from './configuration.error';

/**
 * The OpenAI provider was selected but neither an API key nor a base URL is configured.
 * A base URL alone is enough for local servers (Ollama, vLLM, llama.cpp) that need no key.
 */
export class MissingApiKeyError extends ConfigurationError {
  static override readonly code = 'MISSING_API_KEY';

  constructor(options: { cause?: unknown } = {}) {
    super({
      message:
        'OpenAIProvider needs an API key or a base URL: set OPENAI_API_KEY (or pass { apiKey }), or set ' +
        'OPENAI_BASE_URL (or pass { baseURL }) for a local OpenAI-compatible server such as Ollama ' +
        '(http://localhost:11434/v1). To run without any model (demos, smoke tests), pass ' +
        'new OfflineProvider() explicitly.',
      cause: options.cause,
    });
  }
}
