import { MissingProviderError } from '../errors/missing-provider.error';
import { isPackageModel, providerForModel } from './ai-sdk/model-from-package';
import { OpenAIProvider } from './openai/openai-provider';
import type { Provider } from './provider';

/**
 * True when `env` configures the OpenAI provider (a non-blank `OPENAI_API_KEY` or `OPENAI_BASE_URL`).
 * @internal
 */
export function hasOpenAIEnvironment(env: Record<string, string | undefined>): boolean {
  return [env.OPENAI_API_KEY, env.OPENAI_BASE_URL].some(
    (value) => value !== undefined && value.trim() !== '',
  );
}

/**
 * The provider the environment configures: the AI SDK model of a prefixed `IDEACT_MODEL`
 * (`google:gemini-2.5-flash`, through its installed package), else an `OpenAIProvider` when
 * `OPENAI_API_KEY` or `OPENAI_BASE_URL` is set in `env`. Otherwise it throws `MissingProviderError`:
 * it never falls back to the `OfflineProvider` on its own (pass that one explicitly for demos).
 */
export function createDefaultProvider(
  env: Record<string, string | undefined> = process.env,
): Provider {
  const model = env.IDEACT_MODEL?.trim();
  // `IDEACT_MODEL=anthropic:claude-sonnet-4-5`: that AI SDK package's model (docs/providers.md).
  if (model !== undefined && isPackageModel(model)) return providerForModel(model, { env });
  if (!hasOpenAIEnvironment(env)) {
    throw new MissingProviderError({ where: 'createDefaultProvider()' });
  }
  return new OpenAIProvider({ env });
}
