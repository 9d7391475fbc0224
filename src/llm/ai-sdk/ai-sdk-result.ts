import type { ReasoningPart } from '../../protocol/message';
import type { Usage } from '../provider';
import type { AiSdkContent, AiSdkFinishReason, AiSdkMetadata, AiSdkUsage } from './ai-sdk-model';

/**
 * Token counts of one call in ideact's terms: input tokens with the cached ones included (the
 * specification's `inputTokens.total`), cache reads as `cachedTokens`, and cache writes and reasoning
 * tokens when the provider reports them. @internal
 */
export function usageOf(usage: AiSdkUsage | undefined): Usage {
  const input = usage?.inputTokens ?? {};
  const output = usage?.outputTokens ?? {};
  const summedInput = (input.noCache ?? 0) + (input.cacheRead ?? 0) + (input.cacheWrite ?? 0);
  const result: Usage = {
    inputTokens: input.total ?? summedInput,
    outputTokens: output.total ?? (output.text ?? 0) + (output.reasoning ?? 0),
    cachedTokens: input.cacheRead ?? 0,
  };
  if (input.cacheWrite !== undefined) result.cacheWriteTokens = input.cacheWrite;
  if (output.reasoning !== undefined) result.reasoningTokens = output.reasoning;
  return result;
}

/**
 * The finish reason as ideact names them (Chat Completions' names: `stop`, `length`,
 * `content_filter`, `tool_calls`), so refusals and truncations are recognised alike. @internal
 */
export function finishReasonOf(reason: AiSdkFinishReason | string | undefined): string {
  const unified = typeof reason === 'string' ? reason : reason?.unified;
  if (unified === undefined) return 'unknown';
  return unified.replace(/-/g, '_');
}

/** The text of a generated result: `structuredOutputText` (v4) when set, else the text parts joined. @internal */
export function resultText(
  content: ArrayLike<AiSdkContent>,
  structuredOutputText: string | undefined,
): string {
  if (structuredOutputText !== undefined) return structuredOutputText;
  let text = '';
  for (const part of Array.from(content)) {
    if (part.type === 'text' && typeof part.text === 'string') text += part.text;
  }
  return text;
}

/** The reasoning parts of a generated result, with their provider metadata (Anthropic's signature). @internal */
export function reasoningOf(content: ArrayLike<AiSdkContent>): ReasoningPart[] {
  const parts: ReasoningPart[] = [];
  for (const part of Array.from(content)) {
    if (part.type !== 'reasoning') continue;
    parts.push(reasoningPart(part.text ?? '', part.providerMetadata));
  }
  return parts;
}

/** A reasoning part as ideact keeps it (plain JSON; metadata copied). @internal */
export function reasoningPart(text: string, metadata: AiSdkMetadata | undefined): ReasoningPart {
  const part: ReasoningPart = { text };
  if (metadata !== undefined && Object.keys(metadata).length > 0) {
    part.providerMetadata = JSON.parse(
      JSON.stringify(metadata),
    ) as ReasoningPart['providerMetadata'];
  }
  return part;
}

/**
 * Merges the metadata of a streamed reasoning part's pieces (start, deltas, end) by provider: the
 * Anthropic package sends the block's signature on a late delta or on the end. @internal
 */
export function mergeMetadata(
  into: AiSdkMetadata | undefined,
  more: AiSdkMetadata | undefined,
): AiSdkMetadata | undefined {
  if (more === undefined) return into;
  const merged: AiSdkMetadata = { ...into };
  for (const [provider, values] of Object.entries(more)) {
    merged[provider] = { ...merged[provider], ...values };
  }
  return merged;
}
