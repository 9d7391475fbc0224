import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { context, propagation, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import {
  createAgent,
  createContainer,
  Executor,
  parseIdea,
  type Idea,
  type ProviderRequest,
  type ToolSchema,
  type TypedToolReference,
} from 'ideact';
import { ScriptedProvider } from 'ideact/testing';

/**
 * Issue 27 item 3 (DESIGN §8: settings flow down with the run): module sub-requests use the agent's
 * `model` and `temperature` unless the module Idea sets its own (`settings`); a nested agent runs with
 * them too; usage by model and the `chat` spans name the model each request really used.
 */
const tool = (name: string, module: string): ToolSchema => ({
  type: 'object',
  properties: { _tool: { const: name }, _module: { const: module }, topic: { type: 'string' } },
  required: ['_tool', 'topic'],
});

const plainIdea = (system: string, settings?: Idea['settings']): Idea => ({
  name: system,
  context: [
    { type: 'system', text: `You are ${system}.` },
    {
      type: 'input',
      input: { topic: 'x' },
      schema: { type: 'object', properties: { topic: { type: 'string' } } },
    },
  ],
  schema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  ...(settings === undefined ? {} : { settings }),
});

/** An agent Idea (its schema is a Vessel): it runs as a nested agent that calls `writer`. */
const editorIdea: Idea = {
  name: 'editor',
  context: [{ type: 'system', text: 'You are editor.' }],
  schema: {
    type: 'object',
    properties: {
      calls: { type: 'array', items: { anyOf: [tool('writer', 'writer.json')] } },
      output: { anyOf: [{ type: 'string' }, { type: 'null' }] },
    },
    required: ['calls', 'output'],
  },
};

function model(request: ProviderRequest): unknown {
  const prompt = request.messages.map((message) => message.content).join('\n');
  if (prompt.includes('You are writer.')) return { text: 'written' };
  if (prompt.includes('You are poet.')) return { text: 'a poem' };
  if (prompt.includes('You are editor.')) {
    return prompt.includes('## Result of')
      ? { calls: [], output: 'edited' }
      : { calls: [{ _tool: 'writer', topic: 'inner' }], output: null };
  }
  if (prompt.includes('## Result of')) return { calls: [], output: 'done' };
  return {
    calls: [
      { _tool: 'writer', topic: 'a' },
      { _tool: 'poet', topic: 'b' },
      { _tool: 'editor', topic: 'c' },
    ],
    output: null,
  };
}

let root: string;
let exporter: InMemorySpanExporter;
let tracerProvider: NodeTracerProvider;

beforeAll(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'ideact-settings-'));
  await fs.writeFile(path.join(root, 'writer.json'), JSON.stringify(plainIdea('writer')));
  // The poet Idea sets its own model: it keeps it (the agent's temperature still applies).
  const poet = plainIdea('poet', { model: 'poet-model' });
  await fs.writeFile(path.join(root, 'poet.json'), JSON.stringify(poet));
  await fs.writeFile(path.join(root, 'editor.json'), JSON.stringify(editorIdea));
});
afterAll(async () => {
  await fs.rm(root, { recursive: true, force: true });
});
beforeEach(() => {
  exporter = new InMemorySpanExporter();
  tracerProvider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  tracerProvider.register();
});
afterEach(async () => {
  await tracerProvider.shutdown();
  trace.disable();
  context.disable();
  propagation.disable();
});

const tools = [
  tool('writer', 'writer.json'),
  tool('poet', 'poet.json'),
  tool('editor', 'editor.json'),
];

/** Each request as `<system prompt's role> <model> <temperature>`. */
function sent(provider: ScriptedProvider): string[] {
  return provider.requests
    .map((request) => {
      const prompt = request.messages.map((message) => message.content).join('\n');
      const who = /You are (\w+)\./.exec(prompt)?.[1] ?? 'agent';
      return `${who} ${request.model} ${request.temperature}`;
    })
    .sort();
}

describe('the run’s model settings reach every request (issue 27 item 3)', () => {
  it('an agent run: its turns, module sub-requests and a nested agent use the agent’s model and temperature; an Idea’s own model wins', async () => {
    const provider = new ScriptedProvider(model);
    const agent = createAgent({
      tools,
      provider,
      moduleRoot: root,
      model: 'agent-model',
      temperature: 0.3,
    });
    const result = await agent.run({ task: 'go', maxTurns: 3 });
    expect(result.output).toBe('done');
    expect(sent(provider)).toEqual([
      'agent agent-model 0.3',
      'agent agent-model 0.3',
      'editor agent-model 0.3',
      'editor agent-model 0.3',
      'poet poet-model 0.3',
      'writer agent-model 0.3',
      'writer agent-model 0.3',
    ]);
    // Usage by model splits by the model each request used, and only those.
    expect(Object.keys(result.usage.byModel ?? {}).sort()).toEqual(['agent-model', 'poet-model']);
    const chats = exporter
      .getFinishedSpans()
      .filter((span) => span.name.startsWith('chat'))
      .map((span) => span.name);
    expect(new Set(chats)).toEqual(new Set(['chat agent-model', 'chat poet-model']));
  });

  it('agent.call() and executor.call() use the agent’s (the container’s) settings', async () => {
    const writer = { toolName: 'writer' } as TypedToolReference<
      { topic: string },
      { text: string }
    >;
    const provider = new ScriptedProvider(model);
    const agent = createAgent({
      tools,
      provider,
      moduleRoot: root,
      model: 'agent-model',
      temperature: 0.3,
    });
    await agent.call(writer, { topic: 'a' });
    const container = createContainer({
      tools,
      provider,
      moduleRoot: root,
      model: 'container-model',
    });
    await container.get(Executor).call(writer, { topic: 'b' });
    // A Call's own settings win over the executor's.
    await container
      .get(Executor)
      .call(writer, { topic: 'c' }, [], { settings: { model: 'call-model', temperature: 0 } });
    expect(provider.requests.map((request) => [request.model, request.temperature])).toEqual([
      ['agent-model', 0.3],
      ['container-model', undefined],
      ['call-model', 0],
    ]);
  });

  it('an Idea’s settings are checked: only model (a string) and temperature (a number)', () => {
    expect(() => parseIdea({ ...plainIdea('x'), settings: { model: 7 } }, 'x.json')).toThrow(
      /at \/settings\/model: expected a model name string, got a number/,
    );
    expect(() => parseIdea({ ...plainIdea('x'), settings: { topP: 1 } }, 'x.json')).toThrow(
      /at \/settings\/topP: unknown setting/,
    );
  });
});
