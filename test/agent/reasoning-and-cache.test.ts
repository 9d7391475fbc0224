import { context, propagation, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import {
  createAgent,
  type Provider,
  type ProviderRequest,
  type ProviderResponse,
  type RunEvent,
  type ToolSchema,
} from 'ideact';
import { cacheBreakpoints } from '../../src/agent/cache-breakpoints';

/**
 * Issue 30 item 3, provider-agnostic: a provider's reasoning is kept with the Vessel it led to, shown
 * as `reasoning-delta` events, sent back on the next turns as `ChatMessage.reasoning`, and counted in
 * usage; the Prompter marks where the stable prefix ends (`ProviderRequest.cacheBreakpoints`).
 */
const weather: ToolSchema = {
  type: 'object',
  properties: { _tool: { const: 'weather' }, city: { type: 'string' } },
  required: ['_tool', 'city'],
};

/** A provider without `stream()` that thinks aloud and records what it was sent. */
function thinkingProvider(): Provider & { requests: ProviderRequest[] } {
  const replies: ProviderResponse[] = [
    {
      options: [{ calls: [{ _tool: 'weather', city: 'Oslo' }], output: null }],
      usage: {
        inputTokens: 100,
        outputTokens: 40,
        cachedTokens: 0,
        cacheWriteTokens: 90,
        reasoningTokens: 25,
      },
      reasoning: [[{ text: 'Need the weather.', providerMetadata: { acme: { token: 't1' } } }]],
    },
    {
      options: [{ calls: [], output: 'sunny' }],
      usage: { inputTokens: 160, outputTokens: 10, cachedTokens: 90, reasoningTokens: 5 },
      reasoning: [[{ text: 'Done.' }]],
    },
  ];
  const requests: ProviderRequest[] = [];
  return {
    name: 'thinking',
    requests,
    generate(request) {
      requests.push(request);
      return Promise.resolve(replies.shift()!);
    },
  };
}

describe('reasoning and cache marks through the agent loop (issue 30 item 3)', () => {
  afterEach(() => {
    // The first test registers an OpenTelemetry SDK globally; nothing leaks into the next one.
    trace.disable();
    context.disable();
    propagation.disable();
  });

  it('keeps reasoning with its Vessel, shows it as events, sends it back, counts it in usage', async () => {
    const provider = thinkingProvider();
    const exporter = new InMemorySpanExporter();
    const tracing = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    tracing.register(); // the global provider and its AsyncLocalStorage context manager
    const agent = createAgent({
      tools: [weather],
      activities: [
        { weather: (params: Record<string, unknown>) => ({ city: params.city, sky: 'sun' }) },
      ],
      provider,
    });
    const stream = agent.stream({
      context: [{ type: 'system', text: 'You answer about the weather.' }],
      task: 'Oslo?',
      output: { type: 'string' },
    });
    const events: RunEvent[] = [];
    for await (const event of stream) events.push(event);
    const result = await stream.result;
    expect(result.output).toBe('sunny');

    expect(events.filter((event) => event.type === 'reasoning-delta')).toEqual([
      expect.objectContaining({ index: 0, delta: 'Need the weather.' }),
      expect.objectContaining({ index: 0, delta: 'Done.' }),
    ]);
    const second = provider.requests[1]!;
    const assistant = second.messages.find((message) => message.role === 'assistant')!;
    expect(assistant.reasoning).toEqual([
      { text: 'Need the weather.', providerMetadata: { acme: { token: 't1' } } },
    ]);
    // The first request had no earlier turn, so nothing to send back.
    expect(provider.requests[0]!.messages.some((message) => message.reasoning !== undefined)).toBe(
      false,
    );

    expect(result.usage).toMatchObject({
      inputTokens: 260,
      outputTokens: 50,
      cachedTokens: 90,
      cacheWriteTokens: 90,
      reasoningTokens: 30,
    });
    // The cache and reasoning counts on the `chat` spans (GenAI conventions), so traces show the share.
    const chats = exporter.getFinishedSpans().filter((span) => span.name.startsWith('chat'));
    expect(chats.map((span) => span.attributes)).toEqual([
      expect.objectContaining({
        'gen_ai.usage.input_tokens': 100,
        'gen_ai.usage.cache_creation.input_tokens': 90,
        'gen_ai.usage.reasoning.output_tokens': 25,
      }),
      expect.objectContaining({
        'gen_ai.usage.input_tokens': 160,
        'gen_ai.usage.cache_read.input_tokens': 90,
        'gen_ai.usage.reasoning.output_tokens': 5,
      }),
    ]);
    await tracing.shutdown();
    const runEnd = events.find((event) => event.type === 'run-end' && event.path.length === 1);
    expect(runEnd).toMatchObject({
      usage: { cachedTokens: 90, reasoningTokens: 30, cacheWriteTokens: 90 },
    });
  });

  it('marks the end of the leading system messages and the last message of each turn', async () => {
    const provider = thinkingProvider();
    const agent = createAgent({
      tools: [weather],
      activities: [{ weather: () => ({ sky: 'sun' }) }],
      provider,
    });
    await agent.run({
      context: [
        { type: 'system', text: 'Rules.' },
        { type: 'system', text: 'More rules.' },
      ],
      task: 'Oslo?',
      output: { type: 'string' },
    });
    for (const request of provider.requests) {
      expect(request.cacheBreakpoints).toEqual([1, request.messages.length - 1]);
    }
    // The next turn repeats the marked prefix byte for byte (what a prompt cache reads).
    const [first, second] = provider.requests;
    expect(second!.messages.slice(0, first!.messages.length).map((m) => m.content)).toEqual(
      first!.messages.map((m) => m.content),
    );
  });
});

describe('cacheBreakpoints (issue 30 item 3)', () => {
  it.each([
    [[], []],
    [['user'], [0]],
    [['system'], [0]],
    [
      ['system', 'system', 'user', 'assistant', 'user'],
      [1, 4],
    ],
    [['user', 'system', 'user'], [2]],
  ] as Array<[Array<'system' | 'user' | 'assistant'>, number[]]>)('%j → %j', (roles, expected) => {
    expect(cacheBreakpoints(roles.map((role) => ({ role, content: 'x' })))).toEqual(expected);
  });
});
