import type { ChatCompletion } from 'openai/resources/chat/completions';
import type { JSONSchema } from '../../protocol/json-schema';
import { RefusalError } from '../../errors/refusal.error';
import { TruncatedResponseError } from '../../errors/truncated-response.error';
import type { ProviderResponse, Usage } from '../provider';
import { fromStrictSolution } from '../strict/from-strict-solution';
import { ROOT_VALUE_KEY, isRecord, needsRootWrap } from '../strict/strict-schema-rules';
import { UnparsedOption, parseReplyText } from '../unparsed-option';
import type { StructuredOutputMode } from './chat-request-body';

/**
 * Turns a Chat Completion into a ProviderResponse. Refused, filtered and truncated choices are
 * dropped; when no choice is left, the first such failure is thrown as a typed error. Unparseable
 * text becomes an {@link UnparsedOption} for the pipeline to repair. @internal
 */
export function parseCompletion(
  completion: ChatCompletion,
  schema: JSONSchema,
  mode: StructuredOutputMode,
): ProviderResponse {
  const options: unknown[] = [];
  let failure: Error | undefined;
  const choices = [...(completion.choices ?? [])].sort((left, right) => left.index - right.index);
  for (const choice of choices) {
    const message = choice.message;
    const content = message?.content ?? '';
    if (typeof message?.refusal === 'string' && message.refusal !== '') {
      failure ??= new RefusalError({ refusal: message.refusal, model: completion.model });
    } else if (choice.finish_reason === 'content_filter') {
      failure ??= new RefusalError({
        refusal: 'the reply was blocked by the content filter',
        model: completion.model,
      });
    } else if (choice.finish_reason === 'length') {
      failure ??= new TruncatedResponseError({ rawText: content, model: completion.model });
    } else if (content.trim() === '') {
      options.push(new UnparsedOption(content, 'the reply was empty'));
    } else {
      options.push(convertBack(parseReplyText(content), schema, mode));
    }
  }
  if (options.length === 0 && failure !== undefined) throw failure;
  return { options, usage: usageOf(completion), raw: completion };
}

function convertBack(value: unknown, schema: JSONSchema, mode: StructuredOutputMode): unknown {
  if (UnparsedOption.isInstance(value)) return value;
  if (mode === 'json_schema') return fromStrictSolution(value, schema);
  if (needsRootWrap(schema) && isRecord(value) && ROOT_VALUE_KEY in value) {
    return value[ROOT_VALUE_KEY];
  }
  return value;
}

/** Token counts of a completion, including cached prompt tokens. */
export function usageOf(completion: ChatCompletion): Usage {
  return {
    inputTokens: completion.usage?.prompt_tokens ?? 0,
    outputTokens: completion.usage?.completion_tokens ?? 0,
    cachedTokens: completion.usage?.prompt_tokens_details?.cached_tokens ?? 0,
  };
}
