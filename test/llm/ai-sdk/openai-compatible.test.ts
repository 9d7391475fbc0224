import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import {
  aiSdkProvider,
  createAgent,
  ProviderAuthError,
  ProviderRateLimitError,
  streamFromProvider,
  toStrictSchema,
  type JSONSchema,
  type ProviderChunk,
  type ProviderRequest,
} from 'ideact';
import { serversForThisFile } from '../../support/chat-completions-server';
import {
  activities,
  notifyTool,
  outputSchema,
  turnOne,
  turnTwo,
  weatherTool,
  type ActivityLog,
} from './support/two-tools';

/**
 * Issue 30 items 1-2 through `@ai-sdk/openai-compatible` (a local OpenAI-compatible server: Ollama,
 * vLLM, llama.cpp) against the repo's Chat Completions test server: a server without structured
 * outputs gets JSON mode with the schema in a system message; one that has them (the package's
 * `supportsStructuredOutputs`) gets the strict `json_schema` exactly as OpenAIProvider sends it.
 */
const serve = serversForThisFile();

/** Chat Completions request fields (OpenAI API reference, "Create chat completion"). */
const CHAT_FIELDS = new Set([
  'model',
  'messages',
  'response_format',
  'temperature',
  'top_p',
  'max_tokens',
  'max_completion_tokens',
  'stream',
  'stream_options',
  'n',
  'stop',
  'seed',
  'presence_penalty',
  'frequency_penalty',
  'user',
  'tools',
  'tool_choice',
  'reasoning_effort',
  'logprobs',
  'top_logprobs',
  'logit_bias',
]);

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

describe('aiSdkProvider(openai-compatible model) against a local Chat Completions server (issue 30)', () => {
  it('runs a Vessel of two tools to its output; a server without structured outputs gets json_object and the schema in the prompt', async () => {
    const server = await serve([
      { json: turnOne, usage: { promptTokens: 300, completionTokens: 40, cachedTokens: 128 } },
      { json: turnTwo, usage: { promptTokens: 400, completionTokens: 20, cachedTokens: 256 } },
    ]);
    const local = createOpenAICompatible({ name: 'local', baseURL: server.baseURL });
    const log: ActivityLog = { weather: [], notify: [] };
    const agent = createAgent({
      tools: [weatherTool, notifyTool],
      activities: [activities(log)],
      provider: aiSdkProvider(local('llama3.1'), { maxRetries: 0 }),
    });
    const result = await agent.run({
      context: [{ type: 'system', text: 'You plan the day.' }],
      task: 'Weather in Oslo, and tell Ana.',
      output: outputSchema,
    });
    expect(result.output).toEqual(turnTwo.output);
    expect(log.weather).toHaveLength(1);
    expect(log.notify).toHaveLength(1);
    expect(result.usage).toMatchObject({ inputTokens: 700, outputTokens: 60, cachedTokens: 384 });
    for (const recorded of server.requests) {
      const body = recorded.body as {
        model: string;
        messages: Array<{ role: string; content: string }>;
        response_format: unknown;
      };
      expect(Object.keys(body).filter((field) => !CHAT_FIELDS.has(field))).toEqual([]);
      expect(body.model).toBe('llama3.1');
      expect(body.response_format).toEqual({ type: 'json_object' });
      // The schema is in a system message (the original Vessel schema, with its constraints).
      const instruction = body.messages.filter((message) => message.role === 'system').at(-1)!;
      expect(instruction.content).toContain('Reply with one JSON object only');
      expect(instruction.content).toContain('"^[A-Z][a-z]+$"');
      expect(instruction.content).toContain('"maxLength": 200');
      // The system prompt keeps its place (first), as OpenAI-compatible servers take it.
      expect(body.messages[0]).toEqual({ role: 'system', content: 'You plan the day.' });
    }
  });

  it('a server with structured outputs gets the strict json_schema OpenAIProvider sends; the reply converted back', async () => {
    const server = await serve([{ json: { city: 'Paris', days: null } }]);
    const local = createOpenAICompatible({
      name: 'vllm',
      baseURL: server.baseURL,
      supportsStructuredOutputs: true,
    });
    const response = await aiSdkProvider(local('qwen'), { maxRetries: 0 }).generate(request);
    expect(response.options).toEqual([{ city: 'Paris' }]);
    expect(server.requests[0]!.body.response_format).toEqual({
      type: 'json_schema',
      json_schema: { name: 'trip', schema: toStrictSchema(schema), strict: true },
    });
  });

  it('streams text deltas and usage with cached tokens', async () => {
    const server = await serve([
      {
        json: { city: 'Paris', days: 2 },
        chunkSize: 4,
        usage: { promptTokens: 50, completionTokens: 9, cachedTokens: 32 },
      },
    ]);
    const local = createOpenAICompatible({
      name: 'local',
      baseURL: server.baseURL,
      includeUsage: true,
    });
    const stream = streamFromProvider(aiSdkProvider(local('llama3.1'), { maxRetries: 0 }), request);
    const chunks: ProviderChunk[] = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(server.requests[0]!.body).toMatchObject({ stream: true });
    expect(chunks.filter((chunk) => chunk.type === 'text-delta').length).toBeGreaterThan(3);
    expect(chunks[chunks.length - 1]).toEqual({
      type: 'usage',
      usage: expect.objectContaining({ inputTokens: 50, outputTokens: 9, cachedTokens: 32 }),
    });
    expect((await stream.response()).options).toEqual([{ city: 'Paris', days: 2 }]);
  });

  it('429 with retry-after and 401 are typed errors', async () => {
    const server = await serve([
      { status: 429, errorMessage: 'Too many requests', headers: { 'retry-after': '1' } },
      { status: 401, errorMessage: 'Incorrect API key provided' },
    ]);
    const local = createOpenAICompatible({ name: 'gateway', baseURL: server.baseURL, apiKey: 'k' });
    const provider = aiSdkProvider(local('m'), { maxRetries: 0 });
    const limited = await provider.generate(request).catch((error: unknown) => error);
    expect(ProviderRateLimitError.isInstance(limited)).toBe(true);
    expect(limited).toMatchObject({ retryAfterMs: 1000 });
    const denied = await provider.generate(request).catch((error: unknown) => error);
    expect(ProviderAuthError.isInstance(denied)).toBe(true);
    expect((denied as Error).message).toContain('Incorrect API key provided');
  });
});
