/**
 * The AI SDK provider packages a model can be chosen from by prefix (`--model anthropic:…`,
 * `IDEACT_MODEL=google:…`): which package to load, which of its exports creates the provider, and the
 * variables its key and base URL usually come from. ideact depends on none of them; the user installs
 * the ones they use. docs/providers.md lists the same table.
 */

/** One provider prefix. */
export interface ModelPackage {
  /** The npm package, e.g. `@ai-sdk/anthropic`. */
  packageName: string;
  /** Names of the package's provider factory, first found wins (packages renamed some over time). */
  factories: readonly string[];
  /** The variable the API key usually comes from, passed as `apiKey` when set. */
  apiKeyVariable?: string;
  /** The variable a base URL comes from, passed as `baseURL` when set. */
  baseURLVariable?: string;
}

/** The prefixes ideact knows, by prefix. `openai:` is the built-in OpenAIProvider, not listed here. */
export const MODEL_PACKAGES: Readonly<Record<string, ModelPackage>> = {
  anthropic: {
    packageName: '@ai-sdk/anthropic',
    factories: ['createAnthropic'],
    apiKeyVariable: 'ANTHROPIC_API_KEY',
    baseURLVariable: 'ANTHROPIC_BASE_URL',
  },
  google: {
    packageName: '@ai-sdk/google',
    factories: ['createGoogleGenerativeAI', 'createGoogle'],
    apiKeyVariable: 'GOOGLE_GENERATIVE_AI_API_KEY',
    baseURLVariable: 'GOOGLE_GENERATIVE_AI_BASE_URL',
  },
  vertex: { packageName: '@ai-sdk/google-vertex', factories: ['createVertex'] },
  bedrock: { packageName: '@ai-sdk/amazon-bedrock', factories: ['createAmazonBedrock'] },
  azure: {
    packageName: '@ai-sdk/azure',
    factories: ['createAzure'],
    apiKeyVariable: 'AZURE_API_KEY',
  },
  mistral: {
    packageName: '@ai-sdk/mistral',
    factories: ['createMistral'],
    apiKeyVariable: 'MISTRAL_API_KEY',
  },
  groq: { packageName: '@ai-sdk/groq', factories: ['createGroq'], apiKeyVariable: 'GROQ_API_KEY' },
  xai: { packageName: '@ai-sdk/xai', factories: ['createXai'], apiKeyVariable: 'XAI_API_KEY' },
  deepseek: {
    packageName: '@ai-sdk/deepseek',
    factories: ['createDeepSeek'],
    apiKeyVariable: 'DEEPSEEK_API_KEY',
  },
  cohere: {
    packageName: '@ai-sdk/cohere',
    factories: ['createCohere'],
    apiKeyVariable: 'COHERE_API_KEY',
  },
  togetherai: {
    packageName: '@ai-sdk/togetherai',
    factories: ['createTogetherAI'],
    apiKeyVariable: 'TOGETHER_AI_API_KEY',
  },
  fireworks: {
    packageName: '@ai-sdk/fireworks',
    factories: ['createFireworks'],
    apiKeyVariable: 'FIREWORKS_API_KEY',
  },
  cerebras: {
    packageName: '@ai-sdk/cerebras',
    factories: ['createCerebras'],
    apiKeyVariable: 'CEREBRAS_API_KEY',
  },
  perplexity: {
    packageName: '@ai-sdk/perplexity',
    factories: ['createPerplexity'],
    apiKeyVariable: 'PERPLEXITY_API_KEY',
  },
  ollama: {
    packageName: 'ollama-ai-provider-v2',
    factories: ['createOllama'],
    baseURLVariable: 'OLLAMA_BASE_URL',
  },
};

/** The prefix of the built-in OpenAI provider (OPENAI_API_KEY / OPENAI_BASE_URL). */
export const OPENAI_PREFIX = 'openai';

/** Every prefix a model name may start with. */
export function knownModelPrefixes(): string[] {
  return [OPENAI_PREFIX, ...Object.keys(MODEL_PACKAGES)];
}

/** A model name split at its provider prefix: `anthropic:claude-sonnet-4-5` → anthropic + the id. */
export interface ModelSpec {
  prefix: string;
  modelId: string;
}

/**
 * The prefix and id of `model`, when it has the shape `<prefix>:<id>` with a prefix of lowercase
 * letters, digits and dashes (so `llama3.1:8b`, an Ollama name, is not split: it has a dot).
 */
export function parseModelSpec(model: string): ModelSpec | undefined {
  const match = /^([a-z][a-z0-9-]*):(.+)$/.exec(model.trim());
  if (match === null) return undefined;
  return { prefix: match[1] as string, modelId: match[2] as string };
}
