import {
  OpenAIProvider,
  ProviderApiError,
  ProviderStreamClosedError,
  RefusalError,
  RequestAbortedError,
  TruncatedResponseError,
  toStrictSchema,
  type JSONSchema,
  type ProviderChunk,
  type ProviderRequest,
} from 'ideact';
import { serversForThisFile, type ChatCompletionsServer } from '../support/chat-completions-server';

const schema: JSONSchema = {
  type: 'object',
  properties: { city: { type: 'string' }, days: { type: 'integer', minimum: 1 } },
  required: ['city'],
};

const request: ProviderRequest = {
  messages: [
    { role: 'system', content: 'You plan trips.' },
    { role: 'user', content: 'Plan Paris.' },
  ],
  schema,
  schemaName: 'trip plan',
};

const serve = serversForThisFile();

function provider(server: ChatCompletionsServer): OpenAIProvider {
  return new OpenAIProvider({
    apiKey: 'sk-test',
    baseURL: server.baseURL,
    model: 'test-model',
    maxRetries: 0,
    env: {},
  });
}

async function readAll(stream: AsyncIterable<ProviderChunk>): Promise<ProviderChunk[]> {
  const chunks: ProviderChunk[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

function textOf(chunks: ProviderChunk[], index = 0): string {
  return chunks
    .filter((chunk) => chunk.type === 'text-delta' && (chunk.index ?? 0) === index)
    .map((chunk) => (chunk.type === 'text-delta' ? chunk.delta : ''))
    .join('');
}

describe('OpenAIProvider.stream against a local Chat Completions server (SSE)', () => {
  it('sends stream: true with usage included; deltas concatenate to the reply; usage and finish arrive', async () => {
    const reply = { city: 'Paris', days: null };
    const server = await serve([
      {
        json: reply,
        chunkSize: 3,
        usage: { promptTokens: 42, completionTokens: 9, cachedTokens: 8 },
      },
    ]);
    const stream = provider(server).stream(request);
    const chunks = await readAll(stream);

    expect(server.requests[0].body).toEqual({
      model: 'test-model',
      messages: request.messages,
      response_format: {
        type: 'json_schema',
        json_schema: { name: 'trip_plan', schema: toStrictSchema(schema), strict: true },
      },
      stream: true,
      stream_options: { include_usage: true },
    });
    const deltas = chunks.filter((chunk) => chunk.type === 'text-delta');
    expect(deltas.length).toBe(Math.ceil(JSON.stringify(reply).length / 3));
    expect(textOf(chunks)).toBe(JSON.stringify(reply));
    expect(chunks).toContainEqual({ type: 'finish', finishReason: 'stop', index: 0 });
    expect(chunks[chunks.length - 1]).toEqual({
      type: 'usage',
      usage: { inputTokens: 42, outputTokens: 9, cachedTokens: 8 },
    });
    // the final response is parsed as generate() parses it: the strict-only null is dropped
    const response = await stream.response();
    expect(response.options).toEqual([{ city: 'Paris' }]);
    expect(response.usage).toEqual({ inputTokens: 42, outputTokens: 9, cachedTokens: 8 });
  });

  it('n > 1: each delta and finish carries its option index; the options come back in order', async () => {
    const server = await serve([
      { choices: [{ content: { city: 'Oslo' } }, { content: { city: 'Bergen', days: 2 } }] },
    ]);
    const stream = provider(server).stream({ ...request, n: 2 });
    const chunks = await readAll(stream);
    expect(server.requests[0].body.n).toBe(2);
    expect(textOf(chunks, 0)).toBe(JSON.stringify({ city: 'Oslo' }));
    expect(textOf(chunks, 1)).toBe(JSON.stringify({ city: 'Bergen', days: 2 }));
    expect(chunks.filter((chunk) => chunk.type === 'finish')).toEqual([
      { type: 'finish', finishReason: 'stop', index: 0 },
      { type: 'finish', finishReason: 'stop', index: 1 },
    ]);
    expect((await stream.response()).options).toEqual([
      { city: 'Oslo' },
      { city: 'Bergen', days: 2 },
    ]);
  });

  it('a truncated reply streams its deltas, then ends with TruncatedResponseError like generate()', async () => {
    const server = await serve([
      { choices: [{ content: '{"city":"Par', finishReason: 'length' }] },
    ]);
    const stream = provider(server).stream(request);
    const chunks: ProviderChunk[] = [];
    const iterationError = await (async () => {
      for await (const chunk of stream) chunks.push(chunk);
    })().catch((caught: unknown) => caught);
    expect(textOf(chunks)).toBe('{"city":"Par');
    expect(chunks).toContainEqual({ type: 'finish', finishReason: 'length', index: 0 });
    const error = await stream.response().catch((caught: unknown) => caught);
    expect(error).toBe(iterationError);
    expect(TruncatedResponseError.isInstance(error)).toBe(true);
    expect((error as TruncatedResponseError).code).toBe('TRUNCATED_RESPONSE');
    expect((error as Error).message).toContain('test-model');
  });

  it('a refusal becomes RefusalError from response(), as generate() throws it', async () => {
    const server = await serve([
      { choices: [{ content: null, refusal: 'I cannot help with that.' }] },
    ]);
    const stream = provider(server).stream(request);
    const error = await stream.response().catch((caught: unknown) => caught);
    expect(RefusalError.isInstance(error)).toBe(true);
    expect((error as RefusalError).code).toBe('REFUSAL');
    expect((error as RefusalError).refusal).toBe('I cannot help with that.');
  });

  it('an HTTP error before the stream starts is the same ProviderApiError generate() throws', async () => {
    const server = await serve([{ status: 400, errorMessage: 'bad schema' }]);
    const error = await readAll(provider(server).stream(request)).catch(
      (caught: unknown) => caught,
    );
    expect(ProviderApiError.isInstance(error)).toBe(true);
    expect((error as ProviderApiError).code).toBe('PROVIDER_API_ERROR');
    expect((error as Error).message).toContain('bad schema');
  });

  it('abort mid-stream: RequestAbortedError, and the server sees the connection closed', async () => {
    const server = await serve([
      { json: { city: 'Reykjavik', days: 4 }, chunkSize: 2, stallAfterChunks: 3 },
    ]);
    const controller = new AbortController();
    const stream = provider(server).stream({ ...request, signal: controller.signal });
    const seen: ProviderChunk[] = [];
    const reading = (async () => {
      for await (const chunk of stream) {
        seen.push(chunk);
        if (seen.length === 3) controller.abort(new Error('user cancelled'));
      }
    })();
    const error = await reading.catch((caught: unknown) => caught);
    expect(RequestAbortedError.isInstance(error)).toBe(true);
    expect((error as RequestAbortedError).code).toBe('REQUEST_ABORTED');
    expect((error as Error).message).toContain(server.baseURL);
    expect(textOf(seen)).toBe(JSON.stringify({ city: 'Reykjavik', days: 4 }).slice(0, 6));
    await server.requests[0].closedEarly;
    await expect(stream.response()).rejects.toBe(error);
  });

  it('leaving the loop early closes the HTTP connection; response() then throws ProviderStreamClosedError', async () => {
    const server = await serve([
      { json: { city: 'Tromsø', days: 5 }, chunkSize: 2, stallAfterChunks: 2 },
    ]);
    const stream = provider(server).stream(request);
    for await (const chunk of stream) {
      if (chunk.type === 'text-delta') break;
    }
    await server.requests[0].closedEarly;
    const error = await stream.response().catch((caught: unknown) => caught);
    expect(ProviderStreamClosedError.isInstance(error)).toBe(true);
    expect((error as ProviderStreamClosedError).code).toBe('PROVIDER_STREAM_CLOSED');
    expect((error as Error).message).toContain('openai:test-model');
  });
});
