import type { Provider, ProviderChunk, ProviderRequest, ProviderResponse } from '../provider';
import { ProviderStream } from '../stream/provider-stream';
import { responseChunks } from '../stream/reply-chunks';
import { emptyUsage } from '../usage';
import { sampleSolution } from './sample-solution';

/** Characters per streamed delta: small enough that consumers see several deltas per reply. */
const OFFLINE_CHUNK_SIZE = 32;

/**
 * The embedded default when no key is configured: a deterministic stand-in that builds a
 * schema-valid placeholder solution from `const`/`enum`/`default`/`examples`/types. It is NOT a
 * language model and never touches the network; its name and `notice` say so wherever it is shown.
 */
export class OfflineProvider implements Provider {
  /** What CLIs and progress output print when the offline provider is in use. */
  static readonly notice =
    'Offline provider: this is not a language model. It answers every request with placeholder values ' +
    'built from the schema (const, enum, default, examples, types), with no network and no reasoning. ' +
    'Set OPENAI_API_KEY, or OPENAI_BASE_URL for a local OpenAI-compatible server, to use a real model.';

  /** Says plainly that this is an offline stand-in, shown next to `usage`. */
  readonly name = 'offline (not a model)';
  /** Same as {@link OfflineProvider.notice}. */
  readonly notice = OfflineProvider.notice;

  /** Returns `n` identical placeholder options; usage is zero (no tokens were spent). */
  async generate(request: ProviderRequest): Promise<ProviderResponse> {
    const n = Math.max(1, request.n ?? 1);
    const options: unknown[] = [];
    for (let index = 0; index < n; index++) options.push(sampleSolution(request.schema));
    return { options, usage: emptyUsage(), raw: { provider: this.name, notice: this.notice } };
  }

  /** Streams the same placeholder options in pieces of 32 characters (no delays, no network). */
  stream(request: ProviderRequest): ProviderStream {
    return new ProviderStream(this.streamChunks(request), this.name);
  }

  private async *streamChunks(
    request: ProviderRequest,
  ): AsyncGenerator<ProviderChunk, ProviderResponse, undefined> {
    const response = await this.generate(request);
    yield* responseChunks(response, OFFLINE_CHUNK_SIZE);
    return response;
  }
}
