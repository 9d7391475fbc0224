import { createGoogleGenerativeAI } from '@ai-sdk/google';
import {
  aiSdkProvider,
  createAgent,
  ProviderAuthError,
  ProviderBadRequestError,
  ProviderRateLimitError,
  RequestAbortedError,
  runRequest,
  streamFromProvider,
  type JSONSchema,
  type ProviderChunk,
  type ProviderRequest,
} from 'ideact';
import {
  startGeminiServer,
  type GeminiReply,
  type GeminiServer,
} from '../../support/gemini-server';
import {
  activities,
  allDescriptions,
  notifyTool,
  outputSchema,
  schemaKeywords,
  turnOne,
  turnTwo,
  weatherTool,
  type ActivityLog,
} from './support/two-tools';

/**
 * Issue 30 items 1-2 through `@ai-sdk/google` (ai@6's package, specification v3) pointed at a local
 * server speaking the Gemini API: the agent runs to its output; the schema reaches Gemini as
 * `generationConfig.responseSchema` with only the fields of Gemini's `Schema` object (API reference),
 * and every constraint it cannot take is in a description (ideact validates it); streaming with
 * thoughts, usage with cached and thinking tokens, abort and the vendor's errors.
 */

/** The fields of Gemini's `Schema` object (https://ai.google.dev/api/caching#Schema). */
const GEMINI_SCHEMA_FIELDS = new Set([
  'type',
  'format',
  'title',
  'description',
  'nullable',
  'enum',
  'maxItems',
  'minItems',
  'properties',
  'required',
  'minProperties',
  'maxProperties',
  'minLength',
  'maxLength',
  'pattern',
  'example',
  'anyOf',
  'propertyOrdering',
  'default',
  'items',
  'minimum',
  'maximum',
]);
/** generateContent's request fields and GenerationConfig's (API reference). */
const REQUEST_FIELDS = new Set([
  'contents',
  'tools',
  'toolConfig',
  'safetySettings',
  'systemInstruction',
  'generationConfig',
  'cachedContent',
]);

const servers: GeminiServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
});

async function setup(replies: GeminiReply[]) {
  const server = await startGeminiServer(replies);
  servers.push(server);
  const google = createGoogleGenerativeAI({ baseURL: server.baseURL, apiKey: 'test-key' });
  return { server, provider: aiSdkProvider(google('gemini-2.5-flash'), { maxRetries: 0 }) };
}

const schema: JSONSchema = {
  type: 'object',
  properties: { city: { type: 'string', format: 'email' }, days: { type: 'integer', minimum: 1 } },
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

describe('aiSdkProvider(google(…)) against the Gemini API (issue 30)', () => {
  it('runs a Vessel of two tools to its output; responseSchema holds only Gemini Schema fields, constraints moved to descriptions', async () => {
    const { server, provider } = await setup([
      { json: turnOne, usage: { prompt: 700, candidates: 50, cached: 512, thoughts: 30 } },
      { json: turnTwo, usage: { prompt: 800, candidates: 20, cached: 640 } },
    ]);
    const log: ActivityLog = { weather: [], notify: [] };
    const agent = createAgent({
      tools: [weatherTool, notifyTool],
      activities: [activities(log)],
      provider,
    });
    const result = await agent.run({
      context: [{ type: 'system', text: 'You plan the day.' }],
      task: 'Weather in Oslo, and tell Ana.',
      output: outputSchema,
    });
    expect(result.stopReason).toBe('output');
    expect(result.output).toEqual(turnTwo.output);
    expect(log.weather).toHaveLength(1);
    expect(log.notify).toHaveLength(1);
    expect(result.usage).toMatchObject({
      inputTokens: 1500,
      cachedTokens: 1152,
      reasoningTokens: 30,
      outputTokens: 50 + 30 + 20,
    });

    for (const recorded of server.requests) {
      expect(recorded.path).toMatch(
        /^\/v1beta\/models\/gemini-2\.5-flash:(stream)?[gG]enerateContent/,
      );
      expect(recorded.headers['x-goog-api-key']).toBe('test-key');
      const body = recorded.body as {
        systemInstruction: { parts: Array<{ text: string }> };
        contents: Array<{ role: string }>;
        generationConfig: { responseMimeType: string; responseSchema: Record<string, unknown> };
      };
      expect(Object.keys(body).filter((field) => !REQUEST_FIELDS.has(field))).toEqual([]);
      expect(body.systemInstruction.parts[0]!.text).toBe('You plan the day.');
      expect(body.contents.every((content) => ['user', 'model'].includes(content.role))).toBe(true);
      expect(body.generationConfig.responseMimeType).toBe('application/json');
      const responseSchema = body.generationConfig.responseSchema;
      const keywords = schemaKeywords(responseSchema);
      expect(keywords.filter(({ keyword }) => !GEMINI_SCHEMA_FIELDS.has(keyword))).toEqual([]);
      const text = JSON.stringify(responseSchema);
      // Gemini's string formats are `enum` and `date-time`; its enums are strings.
      for (const format of text.match(/"format":"[^"]*"/g) ?? []) {
        expect(['"format":"date-time"', '"format":"enum"']).toContain(format);
      }
      for (const values of text.match(/"enum":\[[^\]]*\]/g) ?? []) {
        expect(
          JSON.parse(values.slice('"enum":'.length)).every(
            (value: unknown) => typeof value === 'string',
          ),
        ).toBe(true);
      }
      // Nothing dropped: the constraints Gemini cannot take are in the descriptions.
      const descriptions = allDescriptions(responseSchema);
      expect(descriptions).toContain('pattern: \\"^[A-Z][a-z]+$\\"');
      expect(descriptions).toContain('format: \\"email\\"');
      expect(descriptions).toContain('one of: [1,3,7]');
      expect(descriptions).toContain('minimum: 0');
      expect(descriptions).toContain('maxLength: 200');
      expect(text).toContain('"format":"date-time"');
    }
  });

  it('generate: usage with cached and thinking tokens; the reply converted back (optional nulls dropped)', async () => {
    const { provider } = await setup([
      {
        json: { city: 'a@b.c', days: null },
        thought: 'Weekend.',
        usage: { prompt: 90, candidates: 12, cached: 64, thoughts: 7 },
      },
    ]);
    const response = await provider.generate(request);
    expect(response.options).toEqual([{ city: 'a@b.c' }]);
    expect(response.usage).toEqual({
      inputTokens: 90,
      outputTokens: 19,
      cachedTokens: 64,
      reasoningTokens: 7,
    });
    expect(response.reasoning).toEqual([[{ text: 'Weekend.' }]]);
    expect(provider.name).toBe('google:gemini-2.5-flash');
  });

  it('a recursive schema is sent in the prompt (JSON mode), and still validated against the original', async () => {
    const tree: JSONSchema = {
      type: 'object',
      properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#' } } },
      required: ['name', 'children'],
    };
    const { server, provider } = await setup([{ json: { name: 'root', children: [] } }]);
    const result = await runRequest(
      { context: [{ type: 'text', text: 'A tree.' }], schema: tree, schemaName: 'tree' },
      { provider },
    );
    expect(result.solution).toEqual({ name: 'root', children: [] });
    const body = server.requests[0]!.body as {
      generationConfig: Record<string, unknown>;
      systemInstruction: { parts: Array<{ text: string }> };
    };
    expect(body.generationConfig.responseMimeType).toBe('application/json');
    expect(body.generationConfig.responseSchema).toBeUndefined();
    expect(body.systemInstruction.parts.map((part) => part.text).join('\n')).toContain(
      '"$ref": "#"',
    );
  });

  it('streams thoughts as reasoning deltas and the text as text deltas; abort closes the connection', async () => {
    const { server, provider } = await setup([
      {
        json: { city: 'a@b.c', days: 2 },
        thought: 'Two days.',
        chunkSize: 4,
        usage: { cached: 10, thoughts: 3 },
      },
      { json: { city: 'a@b.c', days: 2 }, chunkSize: 3, stallAfterChunks: 2 },
    ]);
    const stream = streamFromProvider(provider, request);
    const chunks: ProviderChunk[] = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(server.requests[0]!.path).toContain(':streamGenerateContent?alt=sse');
    expect(chunks.filter((chunk) => chunk.type === 'reasoning-delta')).toEqual([
      { type: 'reasoning-delta', delta: 'Two days.', index: 0 },
    ]);
    const text = chunks.flatMap((chunk) => (chunk.type === 'text-delta' ? [chunk.delta] : []));
    expect(text.length).toBeGreaterThan(2);
    expect((await stream.response()).options).toEqual([{ city: 'a@b.c', days: 2 }]);
    expect(chunks[chunks.length - 1]).toMatchObject({
      type: 'usage',
      usage: { cachedTokens: 10, reasoningTokens: 3 },
    });

    const controller = new AbortController();
    const aborted = streamFromProvider(provider, { ...request, signal: controller.signal });
    const error = await (async () => {
      for await (const chunk of aborted) if (chunk.type === 'text-delta') controller.abort();
    })().catch((caught: unknown) => caught);
    expect(RequestAbortedError.isInstance(error)).toBe(true);
    await server.requests[1]!.closedEarly;
  });

  it('429 RESOURCE_EXHAUSTED with retry-after, 403 PERMISSION_DENIED and 400 INVALID_ARGUMENT are typed errors', async () => {
    const { provider } = await setup([
      {
        status: 429,
        errorStatus: 'RESOURCE_EXHAUSTED',
        errorMessage: 'Quota exceeded',
        headers: { 'retry-after': '7' },
      },
      { status: 403, errorStatus: 'PERMISSION_DENIED', errorMessage: 'API key not valid' },
      {
        status: 400,
        errorStatus: 'INVALID_ARGUMENT',
        errorMessage:
          'Invalid JSON payload received. Unknown name "const" at generation_config.response_schema',
      },
    ]);
    const rateLimited = await provider.generate(request).catch((error: unknown) => error);
    expect(ProviderRateLimitError.isInstance(rateLimited)).toBe(true);
    expect(rateLimited).toMatchObject({ retryAfterMs: 7000, status: 429 });
    const denied = await provider.generate(request).catch((error: unknown) => error);
    expect(ProviderAuthError.isInstance(denied)).toBe(true);
    expect((denied as Error).message).toContain('API key not valid');
    const invalid = await provider.generate(request).catch((error: unknown) => error);
    expect(ProviderBadRequestError.isInstance(invalid)).toBe(true);
    expect(invalid).toMatchObject({ schemaName: 'trip', schemaProblem: true });
  });
});
