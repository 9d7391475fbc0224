import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ContainerInstance } from 'typedi';
import type { IdeactConfig } from '../container/ideact-config';
import { createContainer } from '../container/create-container';
import { PlaygroundConfigError } from '../errors/playground-config.error';
import { hasOpenAIEnvironment, createDefaultProvider } from '../llm/default-provider';
import { OfflineProvider } from '../llm/offline/offline-provider';
import type { Provider } from '../llm/provider';
import type { PlaygroundProviderInfo } from './playground-api';

/**
 * What `ideact dev` runs on: the provider (OpenAI when OPENAI_API_KEY / OPENAI_BASE_URL is set, else
 * the offline provider, said plainly) and the `--config` module (a container or a configuration).
 */

/** OpenAI when the environment configures it, else the offline provider (placeholder answers). */
export function choosePlaygroundProvider(env: Record<string, string | undefined>): Provider {
  return hasOpenAIEnvironment(env) ? createDefaultProvider(env) : new OfflineProvider();
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
    ? 'provider: offline — no OPENAI_API_KEY or OPENAI_BASE_URL is set, so every answer is a placeholder built from the schema, not a model'
    : `provider: ${info.name}`;
}

/**
 * The container a `--config` module exports (`module.exports`, `default`, or a `container` /
 * `config` export): a container as it is, a configuration made into one (with `provider` when it
 * names none). Throws {@link PlaygroundConfigError} when it loads nothing usable.
 */
export async function loadConfigContainer(
  file: string,
  provider: Provider,
): Promise<ContainerInstance> {
  const exported = await importModule(file);
  const candidates = [
    exported,
    ...['default', 'container', 'config'].map((key) => pick(exported, key)),
  ];
  for (const candidate of candidates) {
    if (candidate instanceof ContainerInstance) return candidate;
  }
  for (const candidate of candidates) {
    if (isConfig(candidate)) {
      try {
        return createContainer({ ...candidate, provider: candidate.provider ?? provider });
      } catch (error) {
        throw new PlaygroundConfigError({
          file,
          reason: `its configuration is not valid (${error instanceof Error ? error.message : String(error)})`,
          cause: error,
        });
      }
    }
  }
  throw new PlaygroundConfigError({
    file,
    reason: 'it exports neither a container nor a configuration with a `tools` array',
  });
}

async function importModule(file: string): Promise<unknown> {
  const absolute = path.resolve(file);
  try {
    if (absolute.endsWith('.mjs')) {
      // A real dynamic import (TypeScript would turn `import()` into `require()` for CommonJS output).
      const load = new Function('specifier', 'return import(specifier)') as (
        specifier: string,
      ) => Promise<unknown>;
      return await load(pathToFileURL(absolute).href);
    }
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- a user's CommonJS (or registered TS) module
    return require(absolute) as unknown;
  } catch (error) {
    throw new PlaygroundConfigError({
      file,
      reason: `it does not load (${error instanceof Error ? error.message : String(error)})`,
      cause: error,
    });
  }
}

function pick(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null
    ? (value as Record<string, unknown>)[key]
    : undefined;
}

function isConfig(value: unknown): value is IdeactConfig {
  return (
    typeof value === 'object' && value !== null && Array.isArray((value as IdeactConfig).tools)
  );
}
