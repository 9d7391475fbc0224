import { ConfigurationError } from './configuration.error';

/**
 * A provider was selected but its API key is not configured: the OpenAI provider with neither an API
 * key nor a base URL (a base URL alone is enough for local servers such as Ollama, vLLM, llama.cpp),
 * or a prefixed model (`anthropic:…`) whose key variable (`variable`) is not set.
 */
export class MissingApiKeyError extends ConfigurationError {
  static override readonly code = 'MISSING_API_KEY';

  /** The variable the key is read from, for a prefixed model (e.g. `ANTHROPIC_API_KEY`). */
  readonly variable?: string;

  constructor(options: { variable?: string; model?: string; cause?: unknown } = {}) {
    super({
      message:
        options.variable === undefined
          ? 'OpenAIProvider needs an API key or a base URL: set OPENAI_API_KEY (or pass { apiKey }), or set ' +
            'OPENAI_BASE_URL (or pass { baseURL }) for a local OpenAI-compatible server such as Ollama ' +
            '(http://localhost:11434/v1). To run without any model (demos, smoke tests), pass ' +
            'new OfflineProvider() explicitly.'
          : `The model "${options.model ?? '?'}" needs an API key: set ${options.variable} in the environment ` +
            '(or create the model in code with the apiKey option of its provider package and pass ' +
            'provider: aiSdkProvider(model)).',
      cause: options.cause,
    });
    if (options.variable !== undefined) this.variable = options.variable;
  }
}
