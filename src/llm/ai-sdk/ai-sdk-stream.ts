import type { ReasoningPart } from '../../protocol/message';
import type { ProviderChunk, Usage } from '../provider';
import { emptyUsage } from '../usage';
import type { AiSdkMetadata, AiSdkStreamPart } from './ai-sdk-model';
import { finishReasonOf, mergeMetadata, reasoningPart, usageOf } from './ai-sdk-result';

/** What reading one option's stream yields: its chunks, then its summary (or the stream's error). @internal */
export type OptionChunk =
  | { type: 'chunk'; chunk: ProviderChunk }
  | {
      type: 'done';
      index: number;
      text: string;
      finishReason: string;
      reasoning: ReasoningPart[];
      usage: Usage;
      modelId?: string;
    }
  | { type: 'error'; error: unknown };

/**
 * Reads a model's stream of option `index`: text and reasoning deltas as ideact chunks, the
 * reasoning blocks with their merged provider metadata (Anthropic sends a block's signature late),
 * then a summary with the text, finish reason and usage. A stream `error` part ends it as an error;
 * aborting `signal` cancels the reader. @internal
 */
export async function* readModelStream(
  stream: ReadableStream<AiSdkStreamPart>,
  index: number,
  signal: AbortSignal | undefined,
): AsyncGenerator<OptionChunk> {
  const reader = stream.getReader();
  const onAbort = (): void => {
    reader.cancel(signal?.reason).catch(() => undefined);
  };
  signal?.addEventListener('abort', onAbort, { once: true });
  let text = '';
  let finishReason = 'unknown';
  let usage = emptyUsage();
  let modelId: string | undefined;
  const blocks = new Map<string, { text: string; metadata?: AiSdkMetadata }>();
  try {
    for (;;) {
      const { done, value: part } = await reader.read();
      if (done) break;
      switch (part.type) {
        case 'text-delta':
          if (typeof part.delta === 'string' && part.delta !== '') {
            text += part.delta;
            yield { type: 'chunk', chunk: { type: 'text-delta', delta: part.delta, index } };
          }
          break;
        case 'reasoning-start':
        case 'reasoning-delta':
        case 'reasoning-end': {
          const id = part.id ?? '';
          const block = blocks.get(id) ?? { text: '' };
          blocks.set(id, block);
          block.metadata = mergeMetadata(block.metadata, part.providerMetadata);
          if (typeof part.delta === 'string' && part.delta !== '') {
            block.text += part.delta;
            yield { type: 'chunk', chunk: { type: 'reasoning-delta', delta: part.delta, index } };
          }
          break;
        }
        case 'response-metadata':
          if (typeof part.modelId === 'string') modelId = part.modelId;
          break;
        case 'finish':
          finishReason = finishReasonOf(part.finishReason);
          usage = usageOf(part.usage);
          break;
        case 'error':
          yield { type: 'error', error: part.error };
          return;
        default:
        // stream-start, tool input parts, sources, raw chunks, pings: nothing for ideact
      }
    }
  } catch (error) {
    yield { type: 'error', error };
    return;
  } finally {
    signal?.removeEventListener('abort', onAbort);
    reader.releaseLock();
  }
  const reasoning = [...blocks.values()].map((block) => reasoningPart(block.text, block.metadata));
  yield {
    type: 'done',
    index,
    text,
    finishReason,
    reasoning,
    usage,
    ...(modelId === undefined ? {} : { modelId }),
  };
}

/**
 * The items of several async iterators as they arrive (each iterator's own order kept), for `n`
 * streamed options at once. Returning early closes every iterator. @internal
 */
export async function* mergeStreams<T>(sources: Array<AsyncIterator<T>>): AsyncGenerator<T> {
  const pending = new Map<number, Promise<{ index: number; step: IteratorResult<T> }>>();
  const pull = (index: number): void => {
    const source = sources[index] as AsyncIterator<T>;
    pending.set(
      index,
      source.next().then((step) => ({ index, step })),
    );
  };
  sources.forEach((_, index) => pull(index));
  try {
    while (pending.size > 0) {
      const { index, step } = await Promise.race(pending.values());
      if (step.done) {
        pending.delete(index);
        continue;
      }
      pull(index);
      yield step.value;
    }
  } finally {
    // Not awaited: a source may be waiting for data; its own signal (aborted by the caller) ends it.
    for (const index of pending.keys()) {
      sources[index]?.return?.(undefined)?.catch(() => undefined);
    }
  }
}
