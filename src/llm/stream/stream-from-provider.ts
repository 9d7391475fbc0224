import { parseReplies, type ReplyText } from '../parse-replies';
import type { Provider, ProviderChunk, ProviderRequest, ProviderResponse } from '../provider';
import { addUsage, emptyUsage } from '../usage';
import { ProviderStream } from './provider-stream';
import { responseChunks } from './reply-chunks';

/**
 * Streams any provider's reply, so callers can always stream: the provider's own `stream()` when it
 * has one, else `generate()` replayed as one text delta per option (its JSON), usage and finish.
 */
export function streamFromProvider(provider: Provider, request: ProviderRequest): ProviderStream {
  if (typeof provider.stream !== 'function') {
    return new ProviderStream(replayGenerate(provider, request), provider.name);
  }
  const source = provider.stream(request);
  if (ProviderStream.isInstance(source)) return source;
  return new ProviderStream(collectChunks(source), provider.name);
}

async function* replayGenerate(
  provider: Provider,
  request: ProviderRequest,
): AsyncGenerator<ProviderChunk, ProviderResponse, undefined> {
  const response = await provider.generate(request);
  yield* responseChunks(response);
  return response;
}

/** Passes a custom provider's chunks through and parses the concatenated text of each option. */
async function* collectChunks(
  source: AsyncIterable<ProviderChunk>,
): AsyncGenerator<ProviderChunk, ProviderResponse, undefined> {
  const replies = new Map<number, ReplyText>();
  const reasoning = new Map<number, string>();
  let usage = emptyUsage();
  for await (const chunk of source) {
    if (chunk.type === 'usage') {
      usage = addUsage(usage, chunk.usage);
    } else if (chunk.type === 'reasoning-delta') {
      const index = chunk.index ?? 0;
      reasoning.set(index, (reasoning.get(index) ?? '') + chunk.delta);
    } else {
      const index = chunk.index ?? 0;
      const reply = replies.get(index) ?? { index, content: '' };
      replies.set(index, reply);
      if (chunk.type === 'text-delta') reply.content += chunk.delta;
      else reply.finishReason = chunk.finishReason;
    }
    yield chunk;
  }
  const response: ProviderResponse = { options: parseReplies([...replies.values()]), usage };
  // Reasoning by option, while the options are the replies one to one (none was dropped as refused).
  if (reasoning.size > 0 && response.options.length === replies.size) {
    response.reasoning = [...replies.keys()]
      .sort((left, right) => left - right)
      .map((index) => {
        const text = reasoning.get(index);
        return text === undefined ? [] : [{ text }];
      });
  }
  const reasons = [...replies.values()]
    .sort((left, right) => left.index - right.index)
    .map((reply) => reply.finishReason ?? 'unknown');
  if (reasons.some((reason) => reason !== 'unknown')) response.finishReasons = reasons;
  return response;
}
