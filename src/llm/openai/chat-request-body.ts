import type { ChatCompletionCreateParamsNonStreaming } from 'openai/resources/chat/completions';
import type { ChatMessage } from '../../protocol/message';
import type { JSONSchema } from '../../protocol/json-schema';
import type { ProviderRequest } from '../provider';
import { toStrictSchema } from '../strict/to-strict-schema';
import { ROOT_VALUE_KEY, needsRootWrap } from '../strict/strict-schema-rules';

/** How structured output is requested: strict JSON Schema, or JSON mode with the schema in the prompt. */
export type StructuredOutputMode = 'json_schema' | 'json_object';

/** Settings the body builder needs besides the request. @internal */
export interface BodySettings {
  model: string;
  mode: StructuredOutputMode;
  temperature?: number;
  maxOutputTokens?: number;
  /** Which body field carries `maxOutputTokens` (OpenAI wants the newer one, compatible servers the older). */
  maxTokensField?: 'max_completion_tokens' | 'max_tokens';
}

/** OpenAI's rule for `json_schema.name`: letters, digits, `_` and `-`, at most 64 characters. */
export function schemaNameFor(schemaName: string | undefined): string {
  const cleaned = (schemaName ?? 'solution').replace(/[^a-zA-Z0-9_-]+/g, '_').slice(0, 64);
  return cleaned === '' ? 'solution' : cleaned;
}

/**
 * The schema as shown in `json_object` mode: the original schema, wrapped as `{ "value": … }` when its
 * root is not an object (JSON mode only produces objects). @internal
 */
export function promptSchemaFor(schema: JSONSchema): JSONSchema {
  if (!needsRootWrap(schema)) return schema;
  const { $defs, definitions, ...body } = schema;
  const wrapped: JSONSchema = {
    type: 'object',
    properties: { [ROOT_VALUE_KEY]: body },
    required: [ROOT_VALUE_KEY],
  };
  if ($defs !== undefined) wrapped.$defs = $defs;
  if (definitions !== undefined) wrapped.definitions = definitions;
  return wrapped;
}

/** The system message `json_object` mode appends: reply with JSON that conforms to the schema. */
export function jsonObjectInstruction(
  schema: JSONSchema,
  schemaName: string | undefined,
): ChatMessage {
  return {
    role: 'system',
    content:
      `Reply with one JSON object only (no prose, no Markdown fence) that conforms to this JSON Schema` +
      ` (${schemaNameFor(schemaName)}):\n${JSON.stringify(promptSchemaFor(schema), null, 2)}`,
  };
}

/** Builds the Chat Completions request body for one provider request. @internal */
export function buildChatRequestBody(
  request: ProviderRequest,
  settings: BodySettings,
): ChatCompletionCreateParamsNonStreaming {
  const messages: ChatMessage[] = request.messages.map((message) => ({
    role: message.role,
    content: message.content,
  }));
  const body: ChatCompletionCreateParamsNonStreaming = {
    model: request.model ?? settings.model,
    messages,
  };
  if (settings.mode === 'json_schema') {
    body.response_format = {
      type: 'json_schema',
      json_schema: {
        name: schemaNameFor(request.schemaName),
        schema: toStrictSchema(request.schema) as Record<string, unknown>,
        strict: true,
      },
    };
  } else {
    messages.push(jsonObjectInstruction(request.schema, request.schemaName));
    body.response_format = { type: 'json_object' };
  }
  const n = request.n ?? 1;
  if (n > 1) body.n = n;
  const temperature = request.temperature ?? settings.temperature;
  if (temperature !== undefined) body.temperature = temperature;
  if (settings.maxOutputTokens !== undefined) {
    if (settings.maxTokensField === 'max_tokens') body.max_tokens = settings.maxOutputTokens;
    else body.max_completion_tokens = settings.maxOutputTokens;
  }
  return body;
}
