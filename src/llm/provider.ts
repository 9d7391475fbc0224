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
}
