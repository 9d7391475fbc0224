import { InvalidEvalError } from '../errors/invalid-eval.error';
import { OPENAI_PREFIX, parseModelSpec } from '../llm/ai-sdk/model-packages';
import { chooseProvider } from '../llm/choose-provider';
import { OfflineProvider } from '../llm/offline/offline-provider';
import type { Provider } from '../llm/provider';

/**
 * The providers of an eval: a Provider given in code, or chosen by name as the CLI chooses one
 * (`chooseProvider`: `"offline"`, `"openai"`, a `model` such as `anthropic:claude-sonnet-4-5`, the
 * environment); with nothing configured the offline stand-in, said on `notice` — its answers are
 * placeholders, not a model's.
 */
export function evalProvider(options: {
  value: unknown;
  source: string;
  jsonPath: string;
  model?: string;
  env: Record<string, string | undefined>;
  notice?: (text: string) => void;
}): Provider {
  const { value, model, env } = options;
  if (isProvider(value)) return value;
  if (value !== undefined && value !== 'offline' && value !== 'openai') {
    throw new InvalidEvalError({
      source: options.source,
      jsonPath: options.jsonPath,
      reason: `${JSON.stringify(value)} is not a provider`,
      fix: 'Write "offline" or "openai" (or choose by model: "model": "anthropic:claude-sonnet-4-5"), or give a Provider object in a .mjs/.ts eval file.',
    });
  }
  const choice = chooseProvider({
    env,
    ...(value === undefined ? {} : { provider: value }),
    ...(model === undefined ? {} : { model }),
  });
  if (choice.offlineFallback) {
    options.notice?.(
      `no provider configured, so using the offline provider. ${OfflineProvider.notice}`,
    );
  }
  return choice.provider;
}

/**
 * The model name an eval's runs ask for: the name as written, but `openai:gpt-4.1` as `gpt-4.1` (the
 * OpenAI provider sends the name to the API as it is; an AI SDK provider answers to its prefixed name).
 */
export function runModelOf(model: string | undefined): string | undefined {
  if (model === undefined) return undefined;
  const spec = parseModelSpec(model);
  return spec?.prefix === OPENAI_PREFIX ? spec.modelId : model;
}

/** True for an object with a `generate` method (a Provider, also from another copy of ideact). */
export function isProvider(value: unknown): value is Provider {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Partial<Provider>).generate === 'function'
  );
}
