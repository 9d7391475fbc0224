import { CliUsageError } from '../../errors/cli-usage.error';
import type { Provider } from '../../llm/provider';
import type { CliIo } from '../cli-io';

/** The options every command that runs a model takes. */
export interface ProviderOptions {
  /** `--provider openai|offline`. */
  provider?: string;
  /** `--model <name>` or `--model <prefix>:<name>` (`anthropic:claude-sonnet-4-5`). */
  model?: string;
}

/** The provider a command runs on, and the model its runs carry. */
export interface SelectedProvider {
  provider: Provider;
  /** The run's `model` setting (`createAgent({ model })`); undefined: the provider's own. */
  model?: string;
}

/**
 * The CLI's one provider choice (`run`, `worker`, `runs resume|enqueue`, `mcp serve`): the library's
 * `chooseProvider` (docs/providers.md), plus what the terminal needs: `--provider openai` without a
 * key is a usage error, and the offline stand-in is always said out loud. With `announce`, the chosen
 * provider is printed too (`ideact run` does). Modules load on first use (`ideact --help` stays fast).
 */
export async function selectProvider(
  options: ProviderOptions,
  io: CliIo,
  settings: { announce?: boolean } = {},
): Promise<SelectedProvider> {
  if (options.provider !== undefined && !['openai', 'offline'].includes(options.provider)) {
    throw new CliUsageError({
      option: '--provider',
      reason: `unknown provider "${options.provider}"`,
      fix: 'Pass --provider openai or --provider offline, or choose a model by prefix: --model anthropic:claude-sonnet-4-5.',
    });
  }
  const { chooseProvider } = await import('../../llm/choose-provider');
  const { OfflineProvider } = await import('../../llm/offline/offline-provider');
  const { MissingApiKeyError } = await import('../../errors/missing-api-key.error');
  let choice;
  try {
    choice = chooseProvider({ ...options, env: io.env });
  } catch (error) {
    if (options.provider === 'openai' && MissingApiKeyError.isInstance(error)) {
      throw new CliUsageError({
        option: '--provider openai',
        reason: 'needs OPENAI_API_KEY (or OPENAI_BASE_URL for a local OpenAI-compatible server)',
        fix: 'Set one of them in the environment, or use --provider offline to run without a model.',
        cause: error,
      });
    }
    throw error;
  }
  if (choice.offlineFallback) {
    io.stderr(
      `ideact: no provider configured, so using --provider offline. ${OfflineProvider.notice}\n`,
    );
  } else if (settings.announce === true) {
    io.stderr(
      choice.provider instanceof OfflineProvider
        ? `ideact: ${OfflineProvider.notice}\n`
        : `ideact: provider ${choice.provider.name ?? 'custom'}\n`,
    );
  }
  return {
    provider: choice.provider,
    ...(choice.model === undefined ? {} : { model: choice.model }),
  };
}
