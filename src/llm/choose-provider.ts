import { UnknownModelProviderError } from '../errors/unknown-model-provider.error';
import { knownModelPrefixes, OPENAI_PREFIX, parseModelSpec } from './ai-sdk/model-packages';
import { isPackageModel, providerForModel } from './ai-sdk/model-from-package';
import { hasOpenAIEnvironment } from './default-provider';
import { OfflineProvider } from './offline/offline-provider';
import { OpenAIProvider } from './openai/openai-provider';
import type { Provider } from './provider';

/** What chooses a provider: a `--provider` name, a `--model`, the environment. */
export interface ProviderChoiceOptions {
  /** `openai` or `offline`; undefined: from the model name and the environment. */
  provider?: string;
  /**
   * The model: `<prefix>:<model>` (`anthropic:claude-sonnet-4-5`, `openai:gpt-4.1`) or a plain name
   * for the OpenAI provider (any OpenAI-compatible server); default `IDEACT_MODEL`.
   */
  model?: string;
  /** Environment (default `process.env`): keys, base URLs, `IDEACT_MODEL`. */
  env?: Record<string, string | undefined>;
  /** The project an AI SDK package is resolved from (default the working directory). */
  projectDir?: string;
}

/** The chosen provider, and the model name requests should carry. */
export interface ProviderChoice {
  provider: Provider;
  /**
   * The model to pass on as the run's `model` setting (`createAgent({ model })`): the plain name for
   * the OpenAI provider; undefined for an AI SDK model (the provider serves the one chosen).
   */
  model?: string;
  /** True when nothing configured a provider, so the offline stand-in (not a model) was chosen. */
  offlineFallback: boolean;
}

/**
 * The one place a provider is chosen from names and the environment (the CLI's `run`, `worker`,
 * `runs resume`, `mcp serve`, and the playground): `offline` → OfflineProvider; a model
 * `<prefix>:<model>` with a known AI SDK prefix → that package's model through `aiSdkProvider`
 * (ModelPackageMissingError names the package when it is not installed); `openai:<model>`, a plain
 * name, or an unknown prefix with OPENAI_BASE_URL set (Ollama's `llama3.1:8b`) → OpenAIProvider as
 * today; an unknown prefix otherwise → UnknownModelProviderError. Nothing configured at all → the
 * offline stand-in, with `offlineFallback` set so the caller says so.
 */
export function chooseProvider(options: ProviderChoiceOptions = {}): ProviderChoice {
  const env = options.env ?? process.env;
  if (options.provider === 'offline') {
    return { provider: new OfflineProvider(), ...modelOf(options.model), offlineFallback: false };
  }
  const name = nonEmpty(options.model) ?? nonEmpty(env.IDEACT_MODEL);
  const spec = name === undefined ? undefined : parseModelSpec(name);
  const openAI = (model: string | undefined): ProviderChoice => ({
    provider: new OpenAIProvider({ env, ...(model === undefined ? {} : { model }) }),
    // The run carries the model only when it was given here, as before (IDEACT_MODEL stays the provider's).
    ...modelOf(options.model === undefined ? undefined : model),
    offlineFallback: false,
  });
  if (options.provider === 'openai') {
    return openAI(spec?.prefix === OPENAI_PREFIX ? spec.modelId : name);
  }
  if (spec?.prefix === OPENAI_PREFIX) return openAI(spec.modelId);
  if (name !== undefined && isPackageModel(name)) {
    return {
      provider: providerForModel(name, {
        env,
        ...(options.projectDir === undefined ? {} : { projectDir: options.projectDir }),
      }),
      offlineFallback: false,
    };
  }
  if (spec !== undefined && !hasOpenAIEnvironment(env)) {
    throw new UnknownModelProviderError({
      model: name as string,
      prefix: spec.prefix,
      known: knownModelPrefixes(),
    });
  }
  if (hasOpenAIEnvironment(env)) return openAI(name);
  return { provider: new OfflineProvider(), ...modelOf(options.model), offlineFallback: true };
}

/** True when the environment configures a provider: OpenAI's variables, or a prefixed IDEACT_MODEL. */
export function hasProviderEnvironment(env: Record<string, string | undefined>): boolean {
  return hasOpenAIEnvironment(env) || isPackageModel(nonEmpty(env.IDEACT_MODEL));
}

function modelOf(model: string | undefined): { model?: string } {
  return model === undefined ? {} : { model };
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}
