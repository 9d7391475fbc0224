import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { context, propagation, SpanStatusCode, trace } from '@opentelemetry/api';
import {
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { createAgent, type ProviderRequest, type ToolSchema } from 'ideact';
import { ScriptedProvider } from 'ideact/testing';

/** Issue 16 item 7: OpenTelemetry spans following the GenAI semantic conventions. */
const weatherTool: ToolSchema = {
  type: 'object',
  description: 'Current weather of a city.',
  properties: { _tool: { const: 'weather' }, city: { type: 'string' } },
  required: ['_tool', 'city'],
};

/** A module Call whose Idea offers tools: it runs as a nested agent (R-MOD-5). */
const plannerTool: ToolSchema = {
  type: 'object',
  properties: {
    _tool: { const: 'planner' },
    _module: { const: 'planner.json' },
    job: { type: 'string' },
  },
  required: ['_tool', 'job'],
};

const plannerIdea = {
  name: 'planner',
  context: [{ type: 'system', text: 'You are planner.' }],
  schema: {
    type: 'object',
    properties: {
      calls: {
        type: 'array',
        items: { anyOf: [weatherTool] },
      },
      output: { anyOf: [{ type: 'string' }, { type: 'null' }] },
    },
    required: ['calls', 'output'],
    additionalProperties: false,
  },
};

/** The top agent calls `weather` and `planner` at once, then answers; the planner answers at once. */
function script(request: ProviderRequest): unknown {
  const prompt = request.messages.map((message) => message.content).join('\n');
  if (prompt.includes('You are planner.')) return { calls: [], output: 'plan: stay home' };
  if (!prompt.includes('## Result of')) {
    return {
      calls: [
        { _tool: 'weather', city: 'Oslo' },
        { _tool: 'planner', job: 'plan my day' },
      ],
      output: null,
    };
  }
  return { calls: [], output: 'done' };
}

let exporter: InMemorySpanExporter;
let tracerProvider: NodeTracerProvider;
let root: string;

beforeAll(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'ideact-tracing-'));
  await fs.writeFile(path.join(root, 'planner.json'), JSON.stringify(plannerIdea));
});
afterAll(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

beforeEach(() => {
  exporter = new InMemorySpanExporter();
  tracerProvider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  // Registers the global tracer provider and the AsyncLocalStorage context manager.
  tracerProvider.register();
});
afterEach(async () => {
  await tracerProvider.shutdown();
  trace.disable();
  context.disable();
  propagation.disable();
});

function agentWith(
  activities: Record<string, (params: Record<string, unknown>) => unknown>,
  traceOptions?: { recordContent?: boolean },
): ReturnType<typeof createAgent> {
  return createAgent({
    tools: [weatherTool, plannerTool],
    activities: [activities],
    provider: new ScriptedProvider(script),
    moduleRoot: root,
    model: 'test-model',
    ...(traceOptions === undefined ? {} : { trace: traceOptions }),
  });
}

const sunny = { weather: (params: Record<string, unknown>) => ({ city: params.city, sky: 'sun' }) };

/** The span tree as indented names (children in start order). */
function tree(spans: readonly ReadableSpan[]): string[] {
  const lines: string[] = [];
  const byParent = new Map<string | undefined, ReadableSpan[]>();
  const ids = new Set(spans.map((span) => span.spanContext().spanId));
  for (const span of spans) {
    const parent = span.parentSpanContext?.spanId;
    const key = parent !== undefined && ids.has(parent) ? parent : undefined;
    byParent.set(key, [...(byParent.get(key) ?? []), span]);
  }
  const walk = (parent: string | undefined, depth: number): void => {
    const children = [...(byParent.get(parent) ?? [])].sort((a, b) =>
      a.startTime[0] !== b.startTime[0]
        ? a.startTime[0] - b.startTime[0]
        : a.startTime[1] - b.startTime[1],
    );
    // Parallel Calls start in one tick: order siblings of equal start by name for a stable tree.
    children.sort((a, b) =>
      a.name.startsWith('execute_tool') && b.name.startsWith('execute_tool')
        ? a.name.localeCompare(b.name)
        : 0,
    );
    for (const child of children) {
      lines.push(`${'  '.repeat(depth)}${child.name}`);
      walk(child.spanContext().spanId, depth + 1);
    }
  };
  walk(undefined, 0);
  return lines;
}

function only(spans: readonly ReadableSpan[], name: string): ReadableSpan {
  const matching = spans.filter((span) => span.name === name);
  expect(matching).toHaveLength(1);
  return matching[0]!;
}

const CONTENT_ATTRIBUTES = [
  'gen_ai.input.messages',
  'gen_ai.output.messages',
  'gen_ai.tool.call.arguments',
  'gen_ai.tool.call.result',
  'ideact.output',
];

describe('tracing with OpenTelemetry (GenAI semantic conventions)', () => {
  it('emits invoke_agent per run, chat per model request and execute_tool per Call, nested runs as children', async () => {
    const result = await agentWith(sunny).run({ task: 'Plan my day in Oslo' });
    expect(result.output).toBe('done');
    const spans = exporter.getFinishedSpans();

    expect(tree(spans)).toEqual([
      'invoke_agent',
      '  chat test-model',
      '  execute_tool planner',
      '    invoke_agent planner',
      '      chat test-model',
      '  execute_tool weather',
      '  chat test-model',
    ]);
    const run = only(spans, 'invoke_agent');
    expect(run.parentSpanContext).toBeUndefined();
    expect(run.attributes).toMatchObject({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.provider.name': 'scripted',
      'gen_ai.request.model': 'test-model',
      'gen_ai.usage.input_tokens': result.usage.inputTokens,
      'gen_ai.usage.output_tokens': result.usage.outputTokens,
      'ideact.stop_reason': 'output',
    });
    expect(run.status.code).not.toBe(SpanStatusCode.ERROR);

    const chats = spans.filter((span) => span.name === 'chat test-model');
    expect(chats).toHaveLength(3);
    for (const chat of chats) {
      expect(chat.attributes).toMatchObject({
        'gen_ai.operation.name': 'chat',
        'gen_ai.provider.name': 'scripted',
        'gen_ai.request.model': 'test-model',
      });
      expect(typeof chat.attributes['gen_ai.usage.input_tokens']).toBe('number');
      expect(typeof chat.attributes['gen_ai.usage.output_tokens']).toBe('number');
    }

    const weather = only(spans, 'execute_tool weather');
    expect(weather.parentSpanContext?.spanId).toBe(run.spanContext().spanId);
    expect(weather.attributes).toMatchObject({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'weather',
      'gen_ai.tool.call.id': '1:0',
    });
    const planner = only(spans, 'execute_tool planner');
    expect(planner.attributes).toMatchObject({ 'gen_ai.tool.call.id': '1:1' });
    const nested = only(spans, 'invoke_agent planner');
    expect(nested.parentSpanContext?.spanId).toBe(planner.spanContext().spanId);
    expect(nested.attributes).toMatchObject({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': 'planner',
    });
    // One trace for the whole run.
    expect(new Set(spans.map((span) => span.spanContext().traceId)).size).toBe(1);
  });

  it('records no message content by default', async () => {
    await agentWith(sunny).run({ task: 'Plan my day in Oslo' });
    for (const span of exporter.getFinishedSpans()) {
      for (const name of CONTENT_ATTRIBUTES) expect(span.attributes[name]).toBeUndefined();
    }
  });

  it('records prompts, solutions, params and outputs with trace: { recordContent: true }, nested runs included', async () => {
    await agentWith(sunny, { recordContent: true }).run({ task: 'Plan my day in Oslo' });
    const spans = exporter.getFinishedSpans();
    const weather = only(spans, 'execute_tool weather');
    expect(JSON.parse(String(weather.attributes['gen_ai.tool.call.arguments']))).toEqual({
      city: 'Oslo',
    });
    expect(JSON.parse(String(weather.attributes['gen_ai.tool.call.result']))).toEqual({
      city: 'Oslo',
      sky: 'sun',
    });
    const nestedChat = spans.find(
      (span) =>
        span.name.startsWith('chat') &&
        String(span.attributes['gen_ai.input.messages']).includes('You are planner.'),
    );
    expect(nestedChat).toBeDefined();
    const replies = JSON.parse(String(nestedChat!.attributes['gen_ai.output.messages'])) as Array<{
      role: string;
      parts: Array<{ type: string; content: string }>;
    }>;
    expect(replies[0]!.role).toBe('assistant');
    expect(JSON.parse(replies[0]!.parts[0]!.content)).toEqual({
      calls: [],
      output: 'plan: stay home',
    });
    expect(JSON.parse(String(only(spans, 'invoke_agent').attributes['ideact.output']))).toBe(
      'done',
    );
    const firstChat = spans.find(
      (span) =>
        span.name.startsWith('chat') &&
        String(span.attributes['gen_ai.input.messages']).includes('Plan my day in Oslo'),
    );
    expect(firstChat).toBeDefined();
  });

  it('marks a failed Call: the execute_tool span has status ERROR and error.type ACTIVITY_FAILED', async () => {
    const result = await agentWith({
      weather: () => {
        throw new TypeError('no sky today');
      },
    }).run({ task: 'Plan my day in Oslo' });
    expect(result.failedCalls.map((failed) => failed.code)).toEqual(['ACTIVITY_FAILED']);
    const spans = exporter.getFinishedSpans();
    const weather = only(spans, 'execute_tool weather');
    expect(weather.status.code).toBe(SpanStatusCode.ERROR);
    expect(weather.status.message).toContain('no sky today');
    expect(weather.attributes['error.type']).toBe('ACTIVITY_FAILED');
    expect(weather.events.map((event) => event.name)).toContain('exception');
    // The run itself fed the failure to the model and ended with an output: not an error.
    expect(only(spans, 'invoke_agent').status.code).not.toBe(SpanStatusCode.ERROR);
    expect(only(spans, 'execute_tool planner').status.code).not.toBe(SpanStatusCode.ERROR);
  });

  it("ends the invoke_agent span with the run's error (activityErrors: 'throw')", async () => {
    const agent = createAgent({
      tools: [weatherTool],
      activities: [
        {
          weather: () => {
            throw new TypeError('no sky today');
          },
        },
      ],
      provider: new ScriptedProvider([
        { calls: [{ _tool: 'weather', city: 'Oslo' }], output: null },
      ]),
      activityErrors: 'throw',
    });
    const result = await agent.run({ task: 'Weather?' });
    expect(result.stopReason).toBe('error');
    const run = only(exporter.getFinishedSpans(), 'invoke_agent');
    expect(run.status.code).toBe(SpanStatusCode.ERROR);
    expect(run.attributes['error.type']).toBe('ACTIVITY_FAILED');
    expect(run.attributes['ideact.stop_reason']).toBe('error');
  });

  it('uses a custom tracer given in trace.tracer', async () => {
    const own = new InMemorySpanExporter();
    const ownProvider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(own)] });
    const agent = createAgent({
      tools: [weatherTool],
      activities: [sunny],
      provider: new ScriptedProvider([
        { calls: [{ _tool: 'weather', city: 'Oslo' }], output: null },
        { calls: [], output: 'sunny' },
      ]),
      trace: { tracer: ownProvider.getTracer('mine') },
    });
    await agent.run({ task: 'Weather?' });
    expect(
      own
        .getFinishedSpans()
        .map((span) => span.name)
        .sort(),
    ).toEqual(['chat', 'chat', 'execute_tool weather', 'invoke_agent']);
    expect(exporter.getFinishedSpans()).toEqual([]);
    await ownProvider.shutdown();
  });
});
