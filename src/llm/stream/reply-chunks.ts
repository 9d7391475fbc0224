import type { ProviderChunk, ProviderResponse } from '../provider';
import { UnparsedOption } from '../unparsed-option';

/**
 * The text an option is streamed as: the raw text of an unparsed reply, else its JSON; empty when
 * the value is too deep to stringify (the pipeline rejects it by its depth anyway). @internal
 */
export function optionText(option: unknown): string {
  if (UnparsedOption.isInstance(option)) return option.rawText;
  try {
    return JSON.stringify(option) ?? '';
  } catch {
    return '';
  }
}

/**
 * The chunks of a finished response, options interleaved (each in pieces of `chunkSize`
 * characters, whole by default), each option's `finish` after its last delta, usage last; `texts`: the
 * options' texts when the caller has them already. @internal
 */
export function* responseChunks(
  response: ProviderResponse,
  chunkSize = Number.POSITIVE_INFINITY,
  texts: readonly string[] = response.options.map(optionText),
): Generator<ProviderChunk> {
  const size = Number.isFinite(chunkSize) ? Math.max(1, Math.floor(chunkSize)) : undefined;
  const lastRounds = texts.map((text) =>
    size === undefined ? 0 : Math.max(0, Math.ceil(text.length / size) - 1),
  );
  const rounds = Math.max(0, ...lastRounds) + 1;
  for (let round = 0; round < rounds; round++) {
    for (const [index, text] of texts.entries()) {
      if (round > lastRounds[index]) continue;
      const delta = size === undefined ? text : text.slice(round * size, (round + 1) * size);
      if (delta !== '') yield { type: 'text-delta', delta, index };
      if (round === lastRounds[index]) yield { type: 'finish', finishReason: 'stop', index };
    }
  }
  yield { type: 'usage', usage: response.usage };
}
