import type { ContainerInstance } from 'typedi';
import { loadConfigModule } from '../container/config-module';
import { createContainer } from '../container/create-container';
import { PlaygroundConfigError } from '../errors/playground-config.error';
import { chooseProvider } from '../llm/choose-provider';
import { OfflineProvider } from '../llm/offline/offline-provider';
import type { Provider } from '../llm/provider';
import type { PlaygroundProviderInfo } from './playground-api';

/**
 * What `ideact dev` runs on: the provider (`--model` / IDEACT_MODEL by prefix, OpenAI when
 * OPENAI_API_KEY / OPENAI_BASE_URL is set, else the offline provider, said plainly) and the `--config`
 * module (a container or a configuration).
 */

/**
 * The provider `chooseProvider` picks from `model` (`ideact dev --model`) and the environment (a
 * prefixed IDEACT_MODEL, OPENAI_API_KEY / OPENAI_BASE_URL), else the offline provider (placeholder
 * answers, said on the page).
 */
export function choosePlaygroundProvider(
  env: Record<string, string | undefined>,
  model?: string,
): Provider {
  return chooseProvider({ env, ...(model === undefined ? {} : { model }) }).provider;
}

/** How `/api/info` and the console describe a provider. */
export function providerInfo(provider: Provider): PlaygroundProviderInfo {
  const offline = provider instanceof OfflineProvider;
  const info: PlaygroundProviderInfo = {
    name: offline ? 'offline' : (provider.name ?? 'custom'),
    offline,
  };
  const model = (provider as { model?: unknown }).model;
  if (typeof model === 'string') info.model = model;
  if (offline) info.note = OfflineProvider.notice;
  return info;
}

/** The console line: `provider: offline — no OPENAI_API_KEY …` or `provider: openai:gpt-4o-mini`. */
export function providerLine(info: PlaygroundProviderInfo): string {
  return info.offline
    ? 'provider: offline — no OPENAI_API_KEY, OPENAI_BASE_URL or prefixed IDEACT_MODEL is set, so every answer is a placeholder built from the schema, not a model'
    : `provider: ${info.name}`;
}

/**
 * The container a `--config` module exports (see `loadConfigModule`): a container as it is, a
 * configuration made into one (with `provider` when it names none). Throws
 * {@link PlaygroundConfigError} when it loads nothing usable.
 */
export async function loadConfigContainer(
  file: string,
  provider: Provider | (() => Promise<Provider>),
): Promise<ContainerInstance> {
  const loaded = await loadConfigModule(file);
  if (loaded.kind === 'container') return loaded.container;
  if (loaded.kind === 'unloadable') {
    throw new PlaygroundConfigError({
      file,
      reason: `it does not load (${messageOf(loaded.error)})`,
      cause: loaded.error,
    });
  }
  if (loaded.kind === 'unusable') {
    throw new PlaygroundConfigError({
      file,
      reason: 'it exports neither a container nor a configuration with a `tools` array',
    });
  }
  try {
    // A provider chosen on demand is chosen only for a configuration that names none.
    const chosen =
      loaded.config.provider ?? (typeof provider === 'function' ? await provider() : provider);
    return createContainer({ ...loaded.config, provider: chosen });
  } catch (error) {
    throw new PlaygroundConfigError({
      file,
      reason: `its configuration is not valid (${messageOf(error)})`,
      cause: error,
    });
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
