import type { ChatCompletion } from 'openai/resources/chat/completions';
import type { CompletionUsage } from 'openai/resources/completions';
import type { JSONSchema } from '../../protocol/json-schema';
import type { ProviderResponse, Usage } from '../provider';
import { parseReplies } from '../parse-replies';
import { fromStrictSolution } from '../strict/from-strict-solution';
import { ROOT_VALUE_KEY, isRecord, needsRootWrap } from '../strict/strict-schema-rules';
import type { StructuredOutputMode } from './chat-request-body';

/**
 * Turns a Chat Completion into a ProviderResponse through {@link parseReplies}, the path a streamed
 * reply takes too, so both are validated alike. @internal
 */
export function parseCompletion(
  completion: ChatCompletion,
  schema: JSONSchema,
  mode: StructuredOutputMode,
): ProviderResponse {
  const replies = (completion.choices ?? []).map((choice) => ({
    index: choice.index,
    content: choice.message?.content ?? '',
    refusal: choice.message?.refusal,
    finishReason: choice.finish_reason,
  }));
  const options = parseReplies(replies, {
    model: completion.model,
    convert: converterFor(schema, mode),
    // A server enforcing the JSON Schema writes the JSON alone; only json_object mode tolerates
    // a fence or prose around it (docs/providers.md).
    jsonOnly: mode === 'json_schema',
  });
  const finishReasons = finishReasonsOf(replies);
  const response: ProviderResponse = { options, usage: usageOf(completion.usage), raw: completion };
  if (completion.model) response.model = completion.model;
  if (finishReasons !== undefined) response.finishReasons = finishReasons;
  return response;
}

/** The finish reason of each reply in index order; undefined when the server reported none. @internal */
export function finishReasonsOf(
  replies: ReadonlyArray<{ index: number; finishReason?: string | null }>,
): string[] | undefined {
  const ordered = [...replies].sort((left, right) => left.index - right.index);
  if (!ordered.some((reply) => typeof reply.finishReason === 'string')) return undefined;
  return ordered.map((reply) => reply.finishReason ?? 'unknown');
}

/** Converts a parsed reply back to the original schema's shape (strict schema, or JSON mode's root wrap). @internal */
export function converterFor(
  schema: JSONSchema,
  mode: StructuredOutputMode,
): (value: unknown) => unknown {
  return (value) => {
    if (mode === 'json_schema') return fromStrictSolution(value, schema);
    if (needsRootWrap(schema) && isRecord(value) && ROOT_VALUE_KEY in value) {
      return value[ROOT_VALUE_KEY];
    }
    return value;
  };
}

/** Token counts reported by the server, including cached prompt tokens. */
export function usageOf(usage: CompletionUsage | null | undefined): Usage {
  return {
    inputTokens: usage?.prompt_tokens ?? 0,
    outputTokens: usage?.completion_tokens ?? 0,
    cachedTokens: usage?.prompt_tokens_details?.cached_tokens ?? 0,
  };
}
