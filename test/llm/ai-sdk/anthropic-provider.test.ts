import { createAnthropic } from '@ai-sdk/anthropic';
import {
  aiSdkProvider,
  ProviderApiError,
  ProviderAuthError,
  ProviderBadRequestError,
  ProviderRateLimitError,
  RefusalError,
  RequestAbortedError,
  runRequest,
  streamFromProvider,
  TruncatedResponseError,
  UnsupportedModelError,
  type AiSdkProviderOptions,
  type JSONSchema,
  type ProviderChunk,
  type ProviderRequest,
} from 'ideact';
import {
  startAnthropicServer,
  type AnthropicReply,
  type AnthropicServer,
} from '../../support/anthropic-messages-server';

/**
 * Issue 30 item 1 through `@ai-sdk/anthropic` against a local Messages API server: generate and
 * stream (text and reasoning deltas, finish reasons, usage with cached and reasoning tokens), n > 1
 * as several calls, abort, the request's model and temperature, and the package's errors as ideact's
 * typed errors (429 with retry-after, 401, 400 naming the schema).
 */
const servers: AnthropicServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
});

async function setup(replies: AnthropicReply[], options: AiSdkProviderOptions = {}) {
  const server = await startAnthropicServer(replies);
  servers.push(server);
  const anthropic = createAnthropic({ baseURL: server.baseURL, apiKey: 'test-key' });
  const provider = aiSdkProvider(anthropic('claude-sonnet-4-5'), { maxRetries: 0, ...options });
  return { server, provider, anthropic };
}

const schema: JSONSchema = {
  type: 'object',
  properties: { city: { type: 'string' }, days: { type: 'integer', minimum: 1 } },
  required: ['city'],
};
const request: ProviderRequest = {
  messages: [
    { role: 'system', content: 'You plan trips.' },
    { role: 'user', content: 'A weekend in Paris.' },
  ],
  schema,
  schemaName: 'trip',
};

describe('aiSdkProvider(anthropic(…)).generate (issue 30 item 1)', () => {
  it('returns the option converted back to the original schema, with usage incl. cached, cache-write and the model', async () => {
    const { server, provider } = await setup([
      {
        json: { city: 'Paris', days: 2 },
        thinking: { thinking: 'Two days fit a weekend.', signature: 'sig-1' },
        usage: { input: 50, output: 30, cacheRead: 400, cacheWrite: 100 },
      },
    ]);
    expect(provider.name).toBe('anthropic:claude-sonnet-4-5');
    const response = await provider.generate(request);
    expect(response.options).toEqual([{ city: 'Paris', days: 2 }]);
    expect(response.usage).toEqual({
      inputTokens: 550,
      outputTokens: 30,
      cachedTokens: 400,
      cacheWriteTokens: 100,
    });
    expect(response.model).toBe('claude-sonnet-4-5');
    expect(response.finishReasons).toEqual(['stop']);
    expect(response.reasoning).toEqual([
      [
        {
          text: 'Two days fit a weekend.',
          providerMetadata: { anthropic: { signature: 'sig-1' } },
        },
      ],
    ]);
    expect(server.requests[0]!.body.stream).toBeUndefined();
  });

  it('n > 1: one call per option (the specification has no n), usage summed', async () => {
    const { server, provider } = await setup([
      { json: { city: 'Paris' }, usage: { input: 10, output: 5 } },
      { json: { city: 'Lyon' }, usage: { input: 10, output: 6 } },
    ]);
    const response = await provider.generate({ ...request, n: 2 });
    expect(server.requests).toHaveLength(2);
    expect(response.options).toHaveLength(2);
    expect(new Set(response.options.map((option) => (option as { city: string }).city))).toEqual(
      new Set(['Paris', 'Lyon']),
    );
    expect(response.usage).toMatchObject({ inputTokens: 20, outputTokens: 11 });
  });

  it('sends the request’s temperature, and its model through modelFor (else a typed error)', async () => {
    const { server, provider, anthropic } = await setup([{ json: { city: 'Paris' } }], {
      temperature: 0.1,
    });
    await provider.generate({ ...request, temperature: 0.7 });
    expect(server.requests[0]!.body).toMatchObject({
      model: 'claude-sonnet-4-5',
      temperature: 0.7,
    });

    const error = await provider
      .generate({ ...request, model: 'claude-haiku-4-5' })
      .catch((e: unknown) => e);
    expect(UnsupportedModelError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain('modelFor');

    const switching = aiSdkProvider(anthropic('claude-sonnet-4-5'), {
      maxRetries: 0,
      modelFor: (name) => anthropic(name),
    });
    server.push({ json: { city: 'Nice' } });
    await switching.generate({ ...request, model: 'claude-haiku-4-5' });
    expect(server.requests[1]!.body.model).toBe('claude-haiku-4-5');
    // The provider's own name (as events and --model give it) is its own model.
    server.push({ json: { city: 'Nice' } });
    await provider.generate({ ...request, model: 'anthropic:claude-sonnet-4-5' });
    expect(server.requests[2]!.body.model).toBe('claude-sonnet-4-5');
  });

  it('a refusal is a RefusalError, a cut-off reply a TruncatedResponseError', async () => {
    const { provider } = await setup([
      { text: 'I cannot help with that.', stopReason: 'refusal' },
      { text: '{"city": "Par', stopReason: 'max_tokens' },
    ]);
    const refusal = await provider.generate(request).catch((error: unknown) => error);
    expect(RefusalError.isInstance(refusal)).toBe(true);
    expect(refusal).toMatchObject({ refusal: 'I cannot help with that.' });
    const truncated = await provider.generate(request).catch((error: unknown) => error);
    expect(TruncatedResponseError.isInstance(truncated)).toBe(true);
    expect(truncated).toMatchObject({ rawText: '{"city": "Par' });
  });

  it('a recursive schema goes through the package’s tool-based JSON mode and still validates (R-REQ-3)', async () => {
    const tree: JSONSchema = {
      type: 'object',
      properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#' } } },
      required: ['name', 'children'],
    };
    const { server, provider } = await setup([
      { json: { name: 'root', children: [{ name: 'leaf', children: [] }] } },
    ]);
    const result = await runRequest(
      { context: [{ type: 'text', text: 'A tree.' }], schema: tree, schemaName: 'tree' },
      { provider },
    );
    expect(result.solution).toEqual({ name: 'root', children: [{ name: 'leaf', children: [] }] });
    const body = server.requests[0]!.body;
    expect(body.output_config).toBeUndefined();
    expect(body.tools).toEqual([
      expect.objectContaining({
        name: 'json',
        input_schema: expect.objectContaining({ type: 'object' }),
      }),
    ]);
    expect(body.tool_choice).toMatchObject({ type: 'any' });
  });
});

describe('aiSdkProvider(anthropic(…)).stream (issue 30 item 1)', () => {
  it('streams reasoning and text deltas, the finish reason, then usage with cached tokens; response() parses', async () => {
    const { server, provider } = await setup([
      {
        json: { city: 'Paris', days: 2 },
        thinking: { thinking: 'A weekend is two days.', signature: 'sig-s' },
        usage: { input: 40, output: 25, cacheRead: 300 },
        chunkSize: 5,
      },
    ]);
    const stream = streamFromProvider(provider, request);
    const chunks: ProviderChunk[] = [];
    for await (const chunk of stream) chunks.push(chunk);
    const response = await stream.response();

    expect(server.requests[0]!.body.stream).toBe(true);
    const text = chunks.flatMap((chunk) => (chunk.type === 'text-delta' ? [chunk.delta] : []));
    const thinking = chunks.flatMap((chunk) =>
      chunk.type === 'reasoning-delta' ? [chunk.delta] : [],
    );
    expect(text.length).toBeGreaterThan(3);
    expect(JSON.parse(text.join(''))).toEqual({ city: 'Paris', days: 2 });
    expect(thinking.join('')).toBe('A weekend is two days.');
    expect(chunks.filter((chunk) => chunk.type === 'finish')).toEqual([
      { type: 'finish', finishReason: 'stop', index: 0 },
    ]);
    expect(chunks[chunks.length - 1]).toEqual({
      type: 'usage',
      usage: { inputTokens: 340, outputTokens: 25, cachedTokens: 300, cacheWriteTokens: 0 },
    });
    expect(response.options).toEqual([{ city: 'Paris', days: 2 }]);
    // The signature arrived on a late delta: the kept reasoning carries it.
    expect(response.reasoning).toEqual([
      [{ text: 'A weekend is two days.', providerMetadata: { anthropic: { signature: 'sig-s' } } }],
    ]);
  });

  it('aborting mid-stream ends it with RequestAbortedError and closes the connection', async () => {
    const { server, provider } = await setup([
      { json: { city: 'Paris', days: 2 }, chunkSize: 3, stallAfterChunks: 2 },
    ]);
    const controller = new AbortController();
    const stream = streamFromProvider(provider, { ...request, signal: controller.signal });
    const seen: ProviderChunk[] = [];
    const reading = (async () => {
      for await (const chunk of stream) {
        seen.push(chunk);
        if (chunk.type === 'text-delta') controller.abort(new Error('stop'));
      }
    })();
    const error = await reading.catch((caught: unknown) => caught);
    expect(RequestAbortedError.isInstance(error)).toBe(true);
    await server.requests[0]!.closedEarly;
    expect(seen.filter((chunk) => chunk.type === 'text-delta')).toHaveLength(1);
  });
});

describe('aiSdkProvider(anthropic(…)): vendor errors as typed errors (issue 30 item 1)', () => {
  it('429 with retry-after → ProviderRateLimitError with retryAfterMs; with retries left it waits and succeeds', async () => {
    const { provider } = await setup([
      {
        status: 429,
        errorType: 'rate_limit_error',
        errorMessage: 'Number of requests has exceeded your rate limit',
        headers: { 'retry-after': '2' },
      },
    ]);
    const error = await provider.generate(request).catch((e: unknown) => e);
    expect(ProviderRateLimitError.isInstance(error)).toBe(true);
    expect(ProviderApiError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ status: 429, attempts: 1, retryAfterMs: 2000 });
    expect((error as Error).message).toContain('rate limit');

    const retrying = await setup(
      [
        {
          status: 429,
          errorType: 'rate_limit_error',
          errorMessage: 'slow down',
          headers: { 'retry-after-ms': '30' },
        },
        { json: { city: 'Paris' } },
      ],
      { maxRetries: 1 },
    );
    const started = Date.now();
    const response = await retrying.provider.generate(request);
    expect(Date.now() - started).toBeGreaterThanOrEqual(25);
    expect(response.options).toEqual([{ city: 'Paris' }]);
    expect(retrying.server.requests).toHaveLength(2);
  });

  it('a Retry-After above maxRetryDelayMs ends the retries at once (the caller schedules)', async () => {
    const { server, provider } = await setup(
      [
        {
          status: 429,
          errorType: 'rate_limit_error',
          errorMessage: 'later',
          headers: { 'retry-after': '3600' },
        },
      ],
      { maxRetries: 3 },
    );
    const error = await provider.generate(request).catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: 'PROVIDER_RATE_LIMITED',
      retryAfterMs: 3_600_000,
      attempts: 1,
    });
    expect(server.requests).toHaveLength(1);
  });

  it('401 → ProviderAuthError naming the key variable', async () => {
    const { provider } = await setup(
      [{ status: 401, errorType: 'authentication_error', errorMessage: 'invalid x-api-key' }],
      { keyVariable: 'ANTHROPIC_API_KEY' },
    );
    const error = await provider.generate(request).catch((e: unknown) => e);
    expect(ProviderAuthError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ status: 401, keyVariable: 'ANTHROPIC_API_KEY' });
    expect((error as Error).message).toContain('invalid x-api-key');
    expect((error as Error).message).toContain('ANTHROPIC_API_KEY');
  });

  it('400 about the schema → ProviderBadRequestError naming the schema and the vendor’s reason', async () => {
    const { provider } = await setup([
      {
        status: 400,
        errorType: 'invalid_request_error',
        errorMessage:
          'output_config.format.schema: For "integer" type, property "minimum" is not supported',
      },
    ]);
    const error = await provider.generate(request).catch((e: unknown) => e);
    expect(ProviderBadRequestError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ status: 400, schemaName: 'trip', schemaProblem: true });
    expect((error as Error).message).toContain('property "minimum" is not supported');
    expect((error as Error).message).toContain('"trip"');
  });
});
