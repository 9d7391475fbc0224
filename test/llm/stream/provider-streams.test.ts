import {
  OfflineProvider,
  ProviderStream,
  ProviderStreamClosedError,
  RefusalError,
  RequestAbortedError,
  sampleSolution,
  streamFromProvider,
  type JSONSchema,
  type Provider,
  type ProviderChunk,
  type ProviderRequest,
} from 'ideact';
import { ScriptedProvider, ScriptedSolutionError, UnparsedOption } from 'ideact/testing';

const schema: JSONSchema = {
  type: 'object',
  properties: { answer: { type: 'string' } },
  required: ['answer'],
};
const ask = (extra: Partial<ProviderRequest> = {}): ProviderRequest => ({
  messages: [{ role: 'user', content: 'question' }],
  schema,
  ...extra,
});

async function readAll(stream: AsyncIterable<ProviderChunk>): Promise<ProviderChunk[]> {
  const chunks: ProviderChunk[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

function deltas(chunks: ProviderChunk[], index = 0): string[] {
  return chunks.flatMap((chunk) =>
    chunk.type === 'text-delta' && (chunk.index ?? 0) === index ? [chunk.delta] : [],
  );
}

describe('ScriptedProvider.stream', () => {
  afterEach(() => {
    jest.useRealTimers();
  });

  it('streams each reply in chunkSize pieces, then finish and usage; records and answers like generate()', async () => {
    const solution = { answer: 'a streamed answer' };
    const provider = new ScriptedProvider([solution, solution], { stream: { chunkSize: 5 } });
    const stream = provider.stream(ask());
    const chunks = await readAll(stream);
    const text = JSON.stringify(solution);
    expect(deltas(chunks)).toEqual(text.match(/.{1,5}/g));
    expect(chunks.slice(-2)).toEqual([
      { type: 'finish', finishReason: 'stop', index: 0 },
      { type: 'usage', usage: (await provider.generate(ask())).usage },
    ]);
    expect((await stream.response()).options).toEqual([solution]);
    expect(provider.requests).toHaveLength(2);
  });

  it('waits delayMs before each delta (fake timers)', async () => {
    jest.useFakeTimers();
    const provider = new ScriptedProvider([{ answer: 'abcdef' }], {
      stream: { chunkSize: 8, delayMs: 100 },
    });
    const seen: ProviderChunk[] = [];
    const reading = (async () => {
      for await (const chunk of provider.stream(ask())) seen.push(chunk);
    })();
    const text = JSON.stringify({ answer: 'abcdef' }); // 19 characters: 3 deltas
    await jest.advanceTimersByTimeAsync(99);
    expect(seen).toEqual([]);
    await jest.advanceTimersByTimeAsync(1);
    expect(deltas(seen)).toEqual([text.slice(0, 8)]);
    await jest.advanceTimersByTimeAsync(100);
    expect(deltas(seen)).toEqual([text.slice(0, 8), text.slice(8, 16)]);
    await jest.advanceTimersByTimeAsync(100);
    await reading;
    expect(deltas(seen).join('')).toBe(text);
  });

  it('n > 1: the options are interleaved, each delta and finish carrying its index', async () => {
    const provider = new ScriptedProvider(
      [ScriptedProvider.options([{ answer: 'first option' }, { answer: 'x' }])],
      { stream: { chunkSize: 4 } },
    );
    const stream = provider.stream(ask({ n: 2 }));
    const chunks = await readAll(stream);
    expect(deltas(chunks, 0).join('')).toBe(JSON.stringify({ answer: 'first option' }));
    expect(deltas(chunks, 1).join('')).toBe(JSON.stringify({ answer: 'x' }));
    const indexes = chunks.flatMap((chunk) => (chunk.type === 'text-delta' ? [chunk.index] : []));
    expect(indexes.slice(0, 4)).toEqual([0, 1, 0, 1]);
    const finishes = chunks.filter((chunk) => chunk.type === 'finish');
    expect(finishes.map((chunk) => chunk.type === 'finish' && chunk.index).sort()).toEqual([0, 1]);
    expect((await stream.response()).options).toEqual([
      { answer: 'first option' },
      { answer: 'x' },
    ]);
  });

  it('validates the scripted solution against the request schema, as generate() does', async () => {
    const provider = new ScriptedProvider([{ answer: 42 }], { stream: { chunkSize: 2 } });
    const error = await readAll(provider.stream(ask())).catch((caught: unknown) => caught);
    expect(ScriptedSolutionError.isInstance(error)).toBe(true);
    expect((error as ScriptedSolutionError).code).toBe('SCRIPTED_SOLUTION_INVALID');
    expect((error as Error).message).toContain('answer');
  });

  it('streams a raw (unparseable) reply as its text and returns it as an UnparsedOption', async () => {
    const provider = new ScriptedProvider([ScriptedProvider.raw('not json')]);
    const stream = provider.stream(ask());
    expect(deltas(await readAll(stream))).toEqual(['not json']);
    const [option] = (await stream.response()).options;
    expect(UnparsedOption.isInstance(option)).toBe(true);
  });

  it('aborting the signal during a delay ends the stream with RequestAbortedError', async () => {
    const provider = new ScriptedProvider([{ answer: 'slow' }], {
      stream: { chunkSize: 1, delayMs: 5 },
    });
    const controller = new AbortController();
    const seen: ProviderChunk[] = [];
    const error = await (async () => {
      for await (const chunk of provider.stream(ask({ signal: controller.signal }))) {
        seen.push(chunk);
        if (seen.length === 2) controller.abort();
      }
    })().catch((caught: unknown) => caught);
    expect(RequestAbortedError.isInstance(error)).toBe(true);
    expect((error as RequestAbortedError).code).toBe('REQUEST_ABORTED');
    expect((error as Error).message).toContain('aborted');
    expect(seen).toHaveLength(2);
  });

  it('response() after a break out of the loop throws ProviderStreamClosedError naming the provider', async () => {
    const provider = new ScriptedProvider([{ answer: 'closed early' }], {
      name: 'demo',
      stream: { chunkSize: 2 },
    });
    const stream = provider.stream(ask());
    for await (const chunk of stream) {
      if (chunk.type === 'text-delta') break;
    }
    const error = await stream.response().catch((caught: unknown) => caught);
    expect(ProviderStreamClosedError.isInstance(error)).toBe(true);
    expect((error as ProviderStreamClosedError).code).toBe('PROVIDER_STREAM_CLOSED');
    expect((error as Error).message).toContain('"demo"');
  });
});

describe('OfflineProvider.stream', () => {
  it('streams its placeholder solution in several deltas; the response equals generate()', async () => {
    const bigSchema: JSONSchema = {
      type: 'object',
      properties: {
        title: { type: 'string', default: 'A placeholder title long enough for chunks' },
        count: { type: 'integer', default: 3 },
      },
      required: ['title', 'count'],
    };
    const provider = new OfflineProvider();
    const stream = provider.stream({ ...ask(), schema: bigSchema, n: 2 });
    const chunks = await readAll(stream);
    const text = JSON.stringify(sampleSolution(bigSchema));
    expect(deltas(chunks).length).toBeGreaterThan(1);
    expect(deltas(chunks, 0).join('')).toBe(text);
    expect(deltas(chunks, 1).join('')).toBe(text);
    expect(chunks[chunks.length - 1]).toEqual({
      type: 'usage',
      usage: { inputTokens: 0, outputTokens: 0, cachedTokens: 0 },
    });
    expect((await stream.response()).options).toEqual(
      (await provider.generate({ ...ask(), schema: bigSchema, n: 2 })).options,
    );
  });
});

describe('streamFromProvider', () => {
  it('a provider with only generate(): one delta per option with its JSON, finish, usage; the exact response', async () => {
    const generated = {
      options: [{ answer: 'only generate' }, { answer: 'second' }],
      usage: { inputTokens: 7, outputTokens: 3, cachedTokens: 1 },
      raw: { from: 'custom' },
    };
    const provider: Provider = { name: 'custom', generate: () => Promise.resolve(generated) };
    const stream = streamFromProvider(provider, ask({ n: 2 }));
    expect(ProviderStream.isInstance(stream)).toBe(true);
    expect(await readAll(stream)).toEqual([
      { type: 'text-delta', delta: JSON.stringify({ answer: 'only generate' }), index: 0 },
      { type: 'finish', finishReason: 'stop', index: 0 },
      { type: 'text-delta', delta: JSON.stringify({ answer: 'second' }), index: 1 },
      { type: 'finish', finishReason: 'stop', index: 1 },
      { type: 'usage', usage: generated.usage },
    ]);
    expect(await stream.response()).toBe(generated);
  });

  it('a provider with its own stream() is used as is; built-in streams pass through unchanged', async () => {
    const scripted = new ScriptedProvider([{ answer: 'x' }]);
    const request = ask();
    const own = scripted.stream(request);
    const wrapper: Provider = { generate: (r) => scripted.generate(r), stream: () => own };
    expect(streamFromProvider(wrapper, request)).toBe(own);
    expect((await streamFromProvider(wrapper, request).response()).options).toEqual([
      { answer: 'x' },
    ]);
    expect(scripted.requests).toHaveLength(1);
  });

  it('a custom stream() of plain chunks: the text is concatenated and parsed; finish reasons become typed errors', async () => {
    async function* chunks(): AsyncGenerator<ProviderChunk> {
      yield { type: 'text-delta', delta: '{"answer":' };
      yield { type: 'text-delta', delta: '"streamed"}' };
      yield { type: 'finish', finishReason: 'stop' };
      yield { type: 'usage', usage: { inputTokens: 2, outputTokens: 4, cachedTokens: 0 } };
    }
    const custom: Provider = {
      generate: () => Promise.reject(new Error('not used')),
      stream: () => chunks(),
    };
    const response = await streamFromProvider(custom, ask()).response();
    expect(response.options).toEqual([{ answer: 'streamed' }]);
    expect(response.usage).toEqual({ inputTokens: 2, outputTokens: 4, cachedTokens: 0 });

    async function* filtered(): AsyncGenerator<ProviderChunk> {
      yield { type: 'finish', finishReason: 'content_filter' };
    }
    const blocked: Provider = { generate: custom.generate, stream: () => filtered() };
    const error = await streamFromProvider(blocked, ask())
      .response()
      .catch((caught: unknown) => caught);
    expect(RefusalError.isInstance(error)).toBe(true);
    expect((error as RefusalError).code).toBe('REFUSAL');
    expect((error as Error).message).toContain('content filter');
  });
});
