import {
  MissingApiKeyError,
  OpenAIProvider,
  ProviderApiError,
  ProviderTimeoutError,
  ProviderUnreachableError,
  RefusalError,
  RequestAbortedError,
  TruncatedResponseError,
  UnparsedOption,
  toStrictSchema,
  type JSONSchema,
  type ProviderRequest,
} from 'ideact';
import {
  closedPortBaseURL,
  serversForThisFile,
  type ChatCompletionsServer,
  type ScriptedReply,
} from '../support/chat-completions-server';

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

/** A server replying from `replies` in order that also records when each request arrived. */
async function serveTimed(
  replies: ScriptedReply[],
): Promise<{ server: ChatCompletionsServer; arrivals: number[] }> {
  const arrivals: number[] = [];
  const server = await serve((_request, index) => {
    arrivals.push(performance.now());
    return replies[index] ?? { status: 500, errorMessage: `script exhausted at request #${index}` };
  });
  return { server, arrivals };
}

/** The openai client's first default backoff is at most 0.5 s, so a longer gap is the server's. */
const FIRST_DEFAULT_BACKOFF_MS = 500;

function provider(
  server: ChatCompletionsServer,
  options: ConstructorParameters<typeof OpenAIProvider>[0] = {},
) {
  return new OpenAIProvider({
    apiKey: 'sk-test',
    baseURL: server.baseURL,
    model: 'test-model',
    env: {},
    ...options,
  });
}

describe('OpenAIProvider against a local Chat Completions server', () => {
  it('sends the exact body (model, messages, strict json_schema response_format, n) and parses options and usage', async () => {
    const server = await serve([
      {
        choices: [
          { content: { city: 'Paris', days: null } },
          { content: { city: 'Lyon', days: 3 } },
        ],
        usage: { promptTokens: 120, completionTokens: 30, cachedTokens: 64 },
      },
    ]);
    const response = await provider(server).generate({ ...request, n: 2, temperature: 0.2 });

    expect(server.requests).toHaveLength(1);
    const sent = server.requests[0];
    expect(sent.method).toBe('POST');
    expect(sent.path).toBe('/v1/chat/completions');
    expect(sent.headers.authorization).toBe('Bearer sk-test');
    expect(sent.body).toEqual({
      model: 'test-model',
      messages: request.messages,
      response_format: {
        type: 'json_schema',
        json_schema: { name: 'trip_plan', schema: toStrictSchema(schema), strict: true },
      },
      n: 2,
      temperature: 0.2,
    });
    // the optional `days` null exists only because of the strict conversion: dropped
    expect(response.options).toEqual([{ city: 'Paris' }, { city: 'Lyon', days: 3 }]);
    expect(response.usage).toEqual({ inputTokens: 120, outputTokens: 30, cachedTokens: 64 });
  });

  it('omits n and temperature when not asked for, and a request model overrides the configured one', async () => {
    const server = await serve([{ json: { city: 'Rome' } }]);
    await provider(server).generate({ ...request, model: 'other-model' });
    expect(server.requests[0].body.model).toBe('other-model');
    expect(server.requests[0].body).not.toHaveProperty('n');
    expect(server.requests[0].body).not.toHaveProperty('temperature');
  });

  it('maxOutputTokens is sent as max_tokens to compatible servers', async () => {
    const server = await serve([{ json: { city: 'Rome' } }]);
    await provider(server, { maxOutputTokens: 256 }).generate(request);
    expect(server.requests[0].body.max_tokens).toBe(256);
    expect(server.requests[0].body).not.toHaveProperty('max_completion_tokens');
  });

  it('json_object mode: response_format json_object, the schema appended as a system message, reply parsed', async () => {
    const server = await serve([{ text: '```json\n{"city":"Oslo"}\n```' }]);
    const response = await provider(server, { mode: 'json_object' }).generate(request);
    const body = server.requests[0].body;
    expect(body.response_format).toEqual({ type: 'json_object' });
    const messages = body.messages as Array<{ role: string; content: string }>;
    expect(messages.slice(0, 2)).toEqual(request.messages);
    expect(messages).toHaveLength(3);
    expect(messages[2].role).toBe('system');
    expect(messages[2].content).toContain('JSON');
    expect(messages[2].content).toContain(JSON.stringify(schema, null, 2));
    expect(response.options).toEqual([{ city: 'Oslo' }]);
  });

  it('json_object mode wraps a non-object root schema as { value } and unwraps the reply', async () => {
    const server = await serve([{ json: { value: ['a', 'b'] } }]);
    const response = await provider(server, { mode: 'json_object' }).generate({
      messages: [{ role: 'user', content: 'List two letters.' }],
      schema: { type: 'array', items: { type: 'string' } },
    });
    const messages = server.requests[0].body.messages as Array<{ content: string }>;
    expect(messages[1].content).toContain('"value"');
    expect(response.options).toEqual([['a', 'b']]);
  });

  it('unparseable reply text becomes an UnparsedOption carrying the raw text (not an exception)', async () => {
    const server = await serve([{ text: '{"city": "Par' }]);
    const response = await provider(server).generate(request);
    expect(response.options).toHaveLength(1);
    const option = response.options[0];
    expect(UnparsedOption.isInstance(option)).toBe(true);
    expect((option as UnparsedOption).rawText).toBe('{"city": "Par');
  });

  it('429 with Retry-After: the client waits the seconds the server asked for, then succeeds', async () => {
    const { server, arrivals } = await serveTimed([
      { status: 429, headers: { 'retry-after': '1.2' }, errorMessage: 'slow down' },
      { json: { city: 'Paris' } },
    ]);
    const response = await provider(server).generate(request);
    expect(server.requests).toHaveLength(2);
    // longer than any first default backoff: the wait is the server's
    expect(arrivals[1] - arrivals[0]).toBeGreaterThanOrEqual(1150);
    expect(arrivals[1] - arrivals[0]).toBeGreaterThan(FIRST_DEFAULT_BACKOFF_MS);
    expect(response.options).toEqual([{ city: 'Paris' }]);
  });

  it('503 with retry-after-ms: the client waits those milliseconds (they win over Retry-After)', async () => {
    const { server, arrivals } = await serveTimed([
      { status: 503, headers: { 'retry-after-ms': '900', 'retry-after': '30' } },
      { json: { city: 'Paris' } },
    ]);
    const response = await provider(server).generate(request);
    expect(server.requests).toHaveLength(2);
    const gap = arrivals[1] - arrivals[0];
    expect(gap).toBeGreaterThanOrEqual(880);
    expect(gap).toBeGreaterThan(FIRST_DEFAULT_BACKOFF_MS);
    expect(gap).toBeLessThan(10_000);
    expect(response.options).toEqual([{ city: 'Paris' }]);
  });

  it('a 500 is retried with the default backoff, then the reply is used', async () => {
    const { server, arrivals } = await serveTimed([
      { status: 500, errorMessage: 'boom' },
      { json: { city: 'Lyon' } },
    ]);
    const response = await provider(server).generate(request);
    expect(server.requests).toHaveLength(2);
    expect(arrivals[1] - arrivals[0]).toBeGreaterThan(300);
    expect(response.options).toEqual([{ city: 'Lyon' }]);
  });

  it('maxRetries: 0 makes one attempt only → ProviderApiError with attempts 1', async () => {
    const server = await serve([{ status: 503 }, { json: { city: 'never reached' } }]);
    const error = await provider(server, { maxRetries: 0 })
      .generate(request)
      .catch((caught: unknown) => caught);
    expect(ProviderApiError.isInstance(error)).toBe(true);
    expect((error as ProviderApiError).status).toBe(503);
    expect((error as ProviderApiError).attempts).toBe(1);
    expect(server.requests).toHaveLength(1);
  });

  it('500s until the retries run out → ProviderApiError with status, URL and attempt count', async () => {
    const server = await serve([
      { status: 500, errorMessage: 'boom' },
      { status: 500, errorMessage: 'boom' },
      { status: 500, errorMessage: 'boom' },
      { json: { city: 'never reached' } },
    ]);
    const error = await provider(server, { maxRetries: 2 })
      .generate(request)
      .catch((caught: unknown) => caught);
    expect(ProviderApiError.isInstance(error)).toBe(true);
    const apiError = error as ProviderApiError;
    expect(apiError.status).toBe(500);
    expect(apiError.attempts).toBe(3);
    expect(apiError.url).toBe(`${server.baseURL}/chat/completions`);
    expect(apiError.message).toContain(server.baseURL);
    expect(server.requests).toHaveLength(3);
  });

  it('a 400 is not retried', async () => {
    const server = await serve([
      { status: 400, errorMessage: 'response_format json_schema is not supported' },
    ]);
    const error = (await provider(server)
      .generate(request)
      .catch((caught: unknown) => caught)) as ProviderApiError;
    expect(error.code).toBe('PROVIDER_API_ERROR');
    expect(error.status).toBe(400);
    expect(error.message).toContain('json_object');
    expect(server.requests).toHaveLength(1);
  });

  it('a reply slower than timeoutMs on every attempt → ProviderTimeoutError after the bounded retries', async () => {
    const server = await serve([
      { delayMs: 3000, json: { city: 'late' } },
      { delayMs: 3000, json: { city: 'late' } },
    ]);
    const error = await provider(server, { timeoutMs: 100, maxRetries: 1 })
      .generate(request)
      .catch((caught: unknown) => caught);
    expect(ProviderTimeoutError.isInstance(error)).toBe(true);
    expect(ProviderApiError.isInstance(error)).toBe(true);
    expect((error as ProviderTimeoutError).timeoutMs).toBe(100);
    expect((error as ProviderTimeoutError).attempts).toBe(2);
    expect((error as ProviderTimeoutError).code).toBe('PROVIDER_TIMEOUT');
    expect((error as ProviderTimeoutError).message).toContain('100 ms');
    expect(server.requests).toHaveLength(2);
  });

  it('a timeout followed by a fast reply succeeds', async () => {
    const server = await serve([
      { delayMs: 3000, json: { city: 'late' } },
      { json: { city: 'fast' } },
    ]);
    const response = await provider(server, { timeoutMs: 200, maxRetries: 1 }).generate(request);
    expect(response.options).toEqual([{ city: 'fast' }]);
  });

  it('abort through the AbortSignal → RequestAbortedError, no retry', async () => {
    const server = await serve([
      { delayMs: 3000, json: { city: 'late' } },
      { json: { city: 'x' } },
    ]);
    const controller = new AbortController();
    const pending = provider(server).generate({ ...request, signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    const error = await pending.catch((caught: unknown) => caught);
    expect(RequestAbortedError.isInstance(error)).toBe(true);
    expect(server.requests).toHaveLength(1);
  });

  it('an already aborted signal sends nothing', async () => {
    const server = await serve([{ json: { city: 'x' } }]);
    const controller = new AbortController();
    controller.abort();
    const error = await provider(server)
      .generate({ ...request, signal: controller.signal })
      .catch((caught: unknown) => caught);
    expect(RequestAbortedError.isInstance(error)).toBe(true);
    expect(server.requests).toHaveLength(0);
  });

  it('abort during the Retry-After wait → RequestAbortedError at once, and no request after the wait', async () => {
    const server = await serve([
      { status: 429, headers: { 'retry-after': '1.5' } },
      { json: { city: 'x' } },
    ]);
    const controller = new AbortController();
    const started = performance.now();
    const pending = provider(server).generate({ ...request, signal: controller.signal });
    setTimeout(() => controller.abort(), 100);
    const error = await pending.catch((caught: unknown) => caught);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(RequestAbortedError.isInstance(error)).toBe(true);
    expect((error as RequestAbortedError).code).toBe('REQUEST_ABORTED');
    // the client's own wait runs out in the background; it must not send the retry
    await new Promise((resolve) => setTimeout(resolve, 1700));
    expect(server.requests).toHaveLength(1);
  });

  it('a refusal → RefusalError with the refusal text', async () => {
    const server = await serve([
      { choices: [{ content: null, refusal: 'I cannot help with that.' }] },
    ]);
    const error = await provider(server)
      .generate(request)
      .catch((caught: unknown) => caught);
    expect(RefusalError.isInstance(error)).toBe(true);
    expect((error as RefusalError).refusal).toBe('I cannot help with that.');
  });

  it('finish_reason length → TruncatedResponseError carrying the partial text', async () => {
    const server = await serve([
      { choices: [{ content: '{"city": "Par', finishReason: 'length' }] },
    ]);
    const error = await provider(server)
      .generate(request)
      .catch((caught: unknown) => caught);
    expect(TruncatedResponseError.isInstance(error)).toBe(true);
    expect((error as TruncatedResponseError).rawText).toBe('{"city": "Par');
  });

  it('with n > 1 a truncated choice is dropped while valid ones are kept', async () => {
    const server = await serve([
      {
        choices: [
          { content: '{"ci', finishReason: 'length' },
          { content: { city: 'Nice', days: null } },
        ],
      },
    ]);
    const response = await provider(server).generate({ ...request, n: 2 });
    expect(response.options).toEqual([{ city: 'Nice' }]);
  });

  it('an unreachable base URL → ProviderUnreachableError naming the URL after the bounded retries', async () => {
    const baseURL = await closedPortBaseURL();
    const error = await new OpenAIProvider({ baseURL, env: {}, maxRetries: 2 })
      .generate(request)
      .catch((caught: unknown) => caught);
    expect(ProviderUnreachableError.isInstance(error)).toBe(true);
    const unreachable = error as ProviderUnreachableError;
    expect(unreachable.url).toBe(`${baseURL}/chat/completions`);
    expect(unreachable.message).toContain(baseURL);
    expect(unreachable.attempts).toBe(3);
    expect(unreachable.code).toBe('PROVIDER_UNREACHABLE');
  });

  it('a base URL without a key works (local servers) and sends a placeholder key', async () => {
    const server = await serve([{ json: { city: 'Bern' } }]);
    const local = new OpenAIProvider({
      env: { OPENAI_BASE_URL: server.baseURL, IDEACT_MODEL: 'llama3.1' },
    });
    expect(local.name).toBe('openai:llama3.1');
    await local.generate(request);
    expect(server.requests[0].body.model).toBe('llama3.1');
    expect(server.requests[0].headers.authorization).toMatch(/^Bearer \S+/);
  });

  it('no key and no base URL → MissingApiKeyError naming OPENAI_API_KEY, OPENAI_BASE_URL and the offline provider', () => {
    const attempt = () => new OpenAIProvider({ env: {} });
    expect(attempt).toThrow(MissingApiKeyError);
    try {
      attempt();
    } catch (error) {
      const message = (error as Error).message;
      expect(message).toContain('OPENAI_API_KEY');
      expect(message).toContain('OPENAI_BASE_URL');
      expect(message).toContain('OfflineProvider');
      expect((error as MissingApiKeyError).fault).toBe('configuration');
    }
  });

  it('defaults the model to gpt-4o-mini', () => {
    expect(new OpenAIProvider({ apiKey: 'sk', env: {} }).model).toBe('gpt-4o-mini');
  });
});
