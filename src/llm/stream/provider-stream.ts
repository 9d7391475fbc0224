import { ProviderStreamClosedError } from '../../errors/provider-stream-closed.error';
import { hasBrand, setBrand } from '../../internal/brand';
import type { ProviderChunk, ProviderResponse } from '../provider';

const MARKER = Symbol.for('ideact.providerStream');

/** The chunks of one reply, ending with the response parsed from them. @internal */
export type ChunkSource = AsyncGenerator<ProviderChunk, ProviderResponse, undefined>;

/**
 * A streamed reply: iterate it for the chunks, then `response()` for the options parsed and
 * validated exactly as `generate()` would return them. One reader; `break` closes the request.
 */
export class ProviderStream implements AsyncIterable<ProviderChunk> {
  private readonly source: ChunkSource;
  private readonly providerName?: string;
  private outcome?: { response: ProviderResponse } | { error: unknown };

  /** `source` yields the chunks and returns the final response; `providerName` is named in errors. */
  constructor(source: ChunkSource, providerName?: string) {
    this.source = source;
    this.providerName = providerName;
  }

  /** True for a ProviderStream, also one created by another copy of the package. */
  static isInstance(value: unknown): value is ProviderStream {
    return hasBrand(value, MARKER);
  }

  /** The chunks, in order; leaving the loop early (`break`) closes the underlying request. */
  [Symbol.asyncIterator](): AsyncIterator<ProviderChunk, undefined> {
    return {
      next: () => this.next(),
      return: async () => {
        if (this.outcome === undefined) {
          this.outcome = { error: new ProviderStreamClosedError({ provider: this.providerName }) };
          await this.source.return(undefined as never);
        }
        return { done: true, value: undefined };
      },
    };
  }

  /**
   * The final response (reads the rest of the stream first). Rejects with the stream's error, e.g.
   * RequestAbortedError, RefusalError or TruncatedResponseError, as `generate()` would.
   */
  async response(): Promise<ProviderResponse> {
    while (!(await this.next()).done) {
      // drain the remaining chunks
    }
    const outcome = this.outcome as { response: ProviderResponse } | { error: unknown };
    if ('error' in outcome) throw outcome.error;
    return outcome.response;
  }

  private async next(): Promise<IteratorResult<ProviderChunk, undefined>> {
    if (this.outcome !== undefined) return { done: true, value: undefined };
    try {
      const step = await this.source.next();
      if (!step.done) return step;
      this.outcome = { response: step.value };
    } catch (error) {
      this.outcome = { error };
      throw error;
    }
    return { done: true, value: undefined };
  }
}
// Branded once on the prototype (its instances inherit it): no per-instance property (issue 28).
setBrand(ProviderStream.prototype, MARKER);
