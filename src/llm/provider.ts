import type { ChatMessage } from '../protocol/message';
import type { JSONSchema } from '../protocol/json-schema';

/** Token counts of one or more LLM invocations. */
export interface Usage {
  inputTokens: number;
  outputTokens: number;
  /** Input tokens served from the provider's prompt cache (a subset of `inputTokens`). */
  cachedTokens: number;
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
 * the request's usage (once, usually last), or why option `index` finished (`stop`, `length`, …).
 */
export type ProviderChunk =
  | { type: 'text-delta'; delta: string; index?: number }
  | { type: 'usage'; usage: Usage }
  | { type: 'finish'; finishReason: string; index?: number };
