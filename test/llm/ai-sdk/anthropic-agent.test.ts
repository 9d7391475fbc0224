import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createAnthropic } from '@ai-sdk/anthropic';
import { aiSdkProvider, createAgent, type AiSdkProviderOptions, type RunEvent } from 'ideact';
import {
  startAnthropicServer,
  type AnthropicReply,
  type AnthropicServer,
} from '../../support/anthropic-messages-server';
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
 * Issue 30 items 1-3 through `@ai-sdk/anthropic` (ai@6's package, specification v3) pointed at a
 * local server speaking the Anthropic Messages API: an agent with a Vessel of two tools runs to its
 * output; the request bodies carry the schema as Anthropic's structured output
 * (`output_config.format`) with only the keywords its API reference supports; thinking blocks come
 * back on the next turn with their signatures; the stable prefix is marked `cache_control`.
 */

/** JSON Schema keywords Anthropic's structured outputs accept (docs: "JSON Schema limitations"). */
const ANTHROPIC_KEYWORDS = new Set([
  'type',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'enum',
  'const',
  'anyOf',
  'allOf',
  '$ref',
  '$defs',
  'definitions',
  'description',
  'title',
  'default',
  'format',
  'minItems',
]);
const ANTHROPIC_FORMATS = new Set([
  'date-time',
  'time',
  'date',
  'duration',
  'email',
  'hostname',
  'uri',
  'ipv4',
  'ipv6',
  'uuid',
]);
/** Top-level fields of a Messages API request (API reference, "Create a Message"). */
const MESSAGES_FIELDS = new Set([
  'model',
  'messages',
  'max_tokens',
  'system',
  'metadata',
  'stop_sequences',
  'stream',
  'temperature',
  'top_k',
  'top_p',
  'tools',
  'tool_choice',
  'thinking',
  'output_config',
  'service_tier',
]);

const servers: AnthropicServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
});

async function serve(replies: AnthropicReply[]): Promise<AnthropicServer> {
  const server = await startAnthropicServer(replies);
  servers.push(server);
  return server;
}

function agentOn(server: AnthropicServer, log: ActivityLog, options: AiSdkProviderOptions = {}) {
  const model = createAnthropic({ baseURL: server.baseURL, apiKey: 'test-key' })(
    'claude-sonnet-4-5',
  );
  return createAgent({
    tools: [weatherTool, notifyTool],
    activities: [activities(log)],
    provider: aiSdkProvider(model, { maxRetries: 0, ...options }),
  });
}

const context = [
  { type: 'system' as const, text: 'You plan the day. Use the tools, then answer.' },
];

describe('aiSdkProvider(anthropic(…)): an agent run against the Messages API (issue 30)', () => {
  it('runs a Vessel of two tools to its output; each body carries the schema in Anthropic’s form, nothing it rejects', async () => {
    const server = await serve([
      { json: turnOne, usage: { input: 900, output: 40, cacheWrite: 800 } },
      { json: turnTwo, usage: { input: 1000, output: 20, cacheRead: 800 } },
    ]);
    const log: ActivityLog = { weather: [], notify: [] };
    const result = await agentOn(server, log).run({
      context,
      task: 'Weather in Oslo, and tell Ana.',
      output: outputSchema,
    });

    expect(result.stopReason).toBe('output');
    expect(result.output).toEqual(turnTwo.output);
    expect(log.weather).toEqual([expect.objectContaining({ city: 'Oslo', days: 3 })]);
    expect(log.notify).toEqual([
      expect.objectContaining({ email: 'ana@example.com', priority: 0.5 }),
    ]);
    expect(server.requests).toHaveLength(2);
    // Usage: input includes the cached tokens (R: cachedTokens ⊂ inputTokens), cache writes counted.
    expect(result.usage).toMatchObject({
      inputTokens: 900 + 800 + 1000 + 800,
      outputTokens: 60,
      cachedTokens: 800,
      cacheWriteTokens: 800,
    });

    for (const request of server.requests) {
      const body = request.body;
      expect(request.path).toBe('/v1/messages');
      expect(request.headers['x-api-key']).toBe('test-key');
      expect(Object.keys(body).filter((field) => !MESSAGES_FIELDS.has(field))).toEqual([]);
      expect(body.model).toBe('claude-sonnet-4-5');
      expect(typeof body.max_tokens).toBe('number');
      // The system prompt is Anthropic's top-level `system`, never a message role.
      expect(body.system).toEqual([
        expect.objectContaining({ type: 'text', text: context[0]!.text }),
      ]);
      const messages = body.messages as Array<{ role: string; content: unknown[] }>;
      expect(messages.every((message) => ['user', 'assistant'].includes(message.role))).toBe(true);
      // Structured output: output_config.format with a json_schema, no JSON tool.
      const format = (
        body.output_config as { format: { type: string; schema: Record<string, unknown> } }
      ).format;
      expect(format.type).toBe('json_schema');
      expect(body.tools).toBeUndefined();
      const keywords = schemaKeywords(format.schema);
      expect(keywords.filter(({ keyword }) => !ANTHROPIC_KEYWORDS.has(keyword))).toEqual([]);
      for (const { keyword, path } of keywords) {
        const node = pathValue(format.schema, path) as Record<string, unknown>;
        if (keyword === 'additionalProperties')
          expect([path, node[keyword]]).toEqual([path, false]);
        if (keyword === 'format') expect(ANTHROPIC_FORMATS.has(node.format as string)).toBe(true);
        if (keyword === 'minItems') expect([0, 1]).toContain(node.minItems);
        if (keyword === 'enum') {
          expect(
            (node.enum as unknown[]).every((value) => value === null || typeof value !== 'object'),
          ).toBe(true);
        }
      }
      // The root is the Vessel: calls (anyOf of the two tools) and the output.
      expect(format.schema).toMatchObject({
        type: 'object',
        required: ['calls', 'output'],
        additionalProperties: false,
      });
      // Constraints Anthropic does not take are in the descriptions (never dropped).
      const descriptions = allDescriptions(format.schema);
      expect(descriptions).toContain('^[A-Z][a-z]+$');
      expect(descriptions).toContain('maxLength');
      expect(descriptions).toMatch(/minimum/);
      expect(descriptions).toMatch(/maximum/);
      expect(JSON.stringify(format.schema)).toContain('"format":"email"');
    }
    // Turn 2 sees turn 1's choice (as the assistant) and both results.
    const second = server.requests[1]!.body.messages as Array<{
      role: string;
      content: Array<{ type: string; text?: string }>;
    }>;
    const assistant = second.find((message) => message.role === 'assistant')!;
    expect(JSON.parse(assistant.content[0]!.text!)).toEqual(turnOne);
    expect(JSON.stringify(second)).toContain('## Result of weather');
    expect(JSON.stringify(second)).toContain('## Result of notify');
  });

  it('sends the thinking blocks of turn 1 back, signature and all, on turn 2 (extended thinking with tools)', async () => {
    const server = await serve([
      {
        json: turnOne,
        thinking: {
          thinking: 'Check the weather first, then notify Ana.',
          signature: 'sig-turn-1',
        },
      },
      { json: turnTwo, thinking: { thinking: 'Both done; summarise.', signature: 'sig-turn-2' } },
    ]);
    const log: ActivityLog = { weather: [], notify: [] };
    const stream = agentOn(server, log, {
      providerOptions: { anthropic: { thinking: { type: 'enabled', budgetTokens: 2048 } } },
    }).stream({ context, task: 'Weather in Oslo, and tell Ana.', output: outputSchema });
    const events: RunEvent[] = [];
    for await (const event of stream) events.push(event);
    const result = await stream.result;
    expect(result.output).toEqual(turnTwo.output);

    expect(server.requests[0]!.body.thinking).toEqual({ type: 'enabled', budget_tokens: 2048 });
    const secondMessages = server.requests[1]!.body.messages as Array<{
      role: string;
      content: Array<Record<string, unknown>>;
    }>;
    const assistant = secondMessages.find((message) => message.role === 'assistant')!;
    expect(assistant.content[0]).toEqual({
      type: 'thinking',
      thinking: 'Check the weather first, then notify Ana.',
      signature: 'sig-turn-1',
    });
    expect(assistant.content[1]).toMatchObject({ type: 'text' });
    // The reasoning streamed as run events, apart from the solution's text.
    const reasoning = events.filter((event) => event.type === 'reasoning-delta');
    expect(reasoning.map((event) => (event as { delta: string }).delta).join('')).toBe(
      'Check the weather first, then notify Ana.Both done; summarise.',
    );
    const solutionText = events
      .filter((event) => event.type === 'solution-delta')
      .map((event) => (event as { delta: string }).delta)
      .join('');
    expect(solutionText).not.toContain('Check the weather');
    // And it is kept in the run's state, with the Vessel it led to (R-LOOP-5: a resume sends it too).
    const vessels = result.state.nodes.filter((node) => node.message.type === 'vessel');
    expect(vessels[0]!.message).toMatchObject({
      reasoning: [
        {
          text: 'Check the weather first, then notify Ana.',
          providerMetadata: { anthropic: { signature: 'sig-turn-1' } },
        },
      ],
    });
  });

  it('keeps the thinking through a saved state: a run resumed in a new agent sends it back (R-LOOP-5)', async () => {
    const directory = await fs.mkdtemp(path.join(os.tmpdir(), 'ideact-thinking-'));
    try {
      const stateFile = path.join(directory, 'run.json');
      const server = await serve([
        { json: turnOne, thinking: { thinking: 'Weather, then Ana.', signature: 'sig-saved' } },
        { json: turnTwo },
      ]);
      const log: ActivityLog = { weather: [], notify: [] };
      const first = await agentOn(server, log).run({
        context,
        task: 'Weather in Oslo, and tell Ana.',
        output: outputSchema,
        maxTurns: 1,
        stateFile,
      });
      expect(first.stopReason).toBe('max_turns');
      const resumed = await agentOn(server, log).resume(stateFile, { maxTurns: 5 });
      expect(resumed.output).toEqual(turnTwo.output);
      const assistant = (
        server.requests[1]!.body.messages as Array<{ role: string; content: unknown[] }>
      ).find((message) => message.role === 'assistant')!;
      expect(assistant.content[0]).toEqual({
        type: 'thinking',
        thinking: 'Weather, then Ana.',
        signature: 'sig-saved',
      });
    } finally {
      await fs.rm(directory, { recursive: true, force: true });
    }
  });

  it('marks the stable prefix cacheable: the system prompt and the last message get cache_control', async () => {
    const server = await serve([{ json: turnOne }, { json: turnTwo }]);
    const log: ActivityLog = { weather: [], notify: [] };
    await agentOn(server, log).run({
      context,
      task: 'Weather in Oslo, and tell Ana.',
      output: outputSchema,
    });
    for (const request of server.requests) {
      const system = request.body.system as Array<Record<string, unknown>>;
      expect(system[system.length - 1]).toMatchObject({ cache_control: { type: 'ephemeral' } });
      const messages = request.body.messages as Array<{ content: Array<Record<string, unknown>> }>;
      const lastMessage = messages[messages.length - 1]!;
      expect(lastMessage.content[lastMessage.content.length - 1]).toMatchObject({
        cache_control: { type: 'ephemeral' },
      });
      // Only those two: Anthropic allows four breakpoints per request.
      expect(JSON.stringify(request.body).match(/cache_control/g)).toHaveLength(2);
    }
    // Turn 2 starts with turn 1's prompt, byte for byte (what the cache reads).
    const first = server.requests[0]!.body.messages as Array<{ content: Array<{ text: string }> }>;
    const second = server.requests[1]!.body.messages as Array<{ content: Array<{ text: string }> }>;
    expect(second[0]!.content[0]!.text).toBe(first[0]!.content[0]!.text);
  });
});

function pathValue(root: unknown, path: string): unknown {
  let value = root;
  for (const segment of path.split('/').slice(1))
    value = (value as Record<string, unknown>)[segment];
  return value;
}
