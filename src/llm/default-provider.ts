import { OfflineProvider } from './offline/offline-provider';
import { OpenAIProvider } from './openai/openai-provider';
import type { Provider } from './provider';

/**
 * The provider ideact uses when none is configured: `OpenAIProvider` when `OPENAI_API_KEY` or
 * `OPENAI_BASE_URL` is set in `env`, else the `OfflineProvider` (no key, no network, not a model).
 */
export function createDefaultProvider(
  env: Record<string, string | undefined> = process.env,
): Provider {
  const configured = [env.OPENAI_API_KEY, env.OPENAI_BASE_URL].some(
    (value) => value !== undefined && value.trim() !== '',
  );
  return configured ? new OpenAIProvider({ env }) : new OfflineProvider();
}
