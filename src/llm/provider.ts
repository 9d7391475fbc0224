import type { ChatMessage, ReasoningPart } from '../protocol/message';
import type { JSONSchema } from '../protocol/json-schema';

/** Token counts of one or more LLM invocations. */
export interface Usage {
  inputTokens: number;
  outputTokens: number;
  /** Input tokens served from the provider's prompt cache (a subset of `inputTokens`). */
  cachedTokens: number;
  /**
   * Input tokens written to the provider's prompt cache (a subset of `inputTokens`; Anthropic bills
   * them above the normal rate). Set only by providers that report it.
   */
  cacheWriteTokens?: number;
  /** Output tokens the model spent reasoning (a subset of `outputTokens`), when the provider reports it. */
  reasoningTokens?: number;
}

/** What a Provider is asked for: rendered messages and the JSON Schema the solution must satisfy. */
export interface ProviderRequest {
  messages: ChatMessage[];
  schema: JSONSchema;
  /** A short name for the schema (OpenAI's `json_schema.name`); `solution` when absent. */
  schemaName?: string;
  /** How many independent options to generate (default 1). */
  n?: number;
  model?: string;
  temperature?: number;
  signal?: AbortSignal;
  /**
   * Indexes of `messages` that end a prefix the next request repeats (the agent's Prompter sets them:
   * the end of the leading system messages and the last message). Providers with explicit prompt
   * caching mark them (Anthropic `cache_control`); the others ignore them.
   */
  cacheBreakpoints?: number[];
}

/** A Provider's answer: `n` parsed options (JSON values, not yet validated), usage and the raw reply. */
export interface ProviderResponse {
  options: unknown[];
  usage: Usage;
  /** The model that answered, as the provider reports it (used for usage by model and traces). */
  model?: string;
  /** Why each option ended (`stop`, `length`, …), by option index, when the provider reports it. */
  finishReasons?: string[];
  /** The provider's raw response, for debugging; never interpreted by ideact. */
  raw?: unknown;
  /**
   * The model's reasoning (thinking) per option index, when the provider returns it. The agent keeps
   * it with the option's Vessel and sends it back on later turns (`ChatMessage.reasoning`), as
   * providers that require it (Anthropic extended thinking with tool use) expect.
   */
  reasoning?: ReasoningPart[][];
}

/**
 * An LLM backend: turns rendered messages + a schema into parsed JSON options. Types only, so that
 * users can bring their own backends without depending on any implementation.
 */
export interface Provider {
  /** A human-readable name (`openai:gpt-4o-mini`, `offline`, `scripted`), shown in progress output. */
  readonly name?: string;
  generate(request: ProviderRequest): Promise<ProviderResponse>;
  /**
   * Optional: the reply as it is generated, so callers can show progress and act on partial output.
   * Callers use `streamFromProvider`, which falls back to `generate()` when this is absent.
   */
  stream?(request: ProviderRequest): AsyncIterable<ProviderChunk>;
}

/**
 * One piece of a streamed reply: a text delta of option `index` (default 0; several with `n > 1`),
 * a reasoning (thinking) delta of option `index` (never part of the solution's text), the request's
 * usage (once, usually last), or why option `index` finished (`stop`, `length`, …).
 */
export type ProviderChunk =
  | { type: 'text-delta'; delta: string; index?: number }
  | { type: 'reasoning-delta'; delta: string; index?: number }
  | { type: 'usage'; usage: Usage }
  | { type: 'finish'; finishReason: string; index?: number };
