import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ScriptedProvider } from 'ideact/testing';
import {
  Agent,
  DISCRIMINATOR,
  JudgeDiscriminator,
  agentFromContainer,
  createAgent,
  createContainer,
  executorWithNestedAgents,
  NestedAgentStoppedError,
  type AgentState,
  type ProviderRequest,
  type ToolSchema,
  type TypedToolReference,
} from 'ideact';

/** A vessel Idea named `name` whose only tool calls module `target` (an agent calling an agent). */
function agentIdea(name: string, target: string): unknown {
  return {
    name,
    context: [
      { type: 'system', text: `You are ${name}.` },
      {
        type: 'input',
        input: { job: 'x' },
        schema: { type: 'object', properties: { job: { type: 'string' } } },
      },
    ],
    schema: {
      type: 'object',
      properties: {
        calls: {
          type: 'array',
          items: {
            anyOf: [
              {
                type: 'object',
                properties: {
                  _tool: { const: target },
                  _module: { const: `${target}.json` },
                  job: { type: 'string' },
                },
                required: ['_tool', 'job'],
              },
            ],
          },
        },
        output: { anyOf: [{ type: 'string' }, { type: 'null' }] },
      },
      required: ['calls', 'output'],
      additionalProperties: false,
    },
  };
}

const topTool: ToolSchema = {
  type: 'object',
  properties: { _tool: { const: 'a' }, _module: { const: 'a.json' }, job: { type: 'string' } },
  required: ['_tool', 'job'],
};

/** Each agent calls its tool once, then answers with what it saw. */
function script(request: ProviderRequest): unknown {
  const system = request.messages[0]?.content ?? '';
  const who = /You are (\w+)\./.exec(system)?.[1] ?? 'top';
  const sawResult = request.messages.some((message) => message.content.startsWith('## Result of'));
  if (!sawResult)
    return { calls: [{ _tool: who === 'a' ? 'b' : 'a', job: `from ${who}` }], output: null };
  const error = /Error (MODULE_\w+)/.exec(
    request.messages.map((message) => message.content).join('\n'),
  )?.[1];
  return { calls: [], output: `${who} done${error ? ` after ${error}` : ''}` };
}

function nestedOf(state: AgentState, tool: string): AgentState {
  const node = state.nodes.find(
    (candidate) => candidate.message.type === 'result' && candidate.message.call._tool === tool,
  );
  const nested = node?.metadata.nested?.[0];
  if (nested === undefined) throw new Error(`no nested state under the result of ${tool}`);
  return nested;
}

describe('nested agents: cycles and depth (R-MOD-5)', () => {
  let root: string;
  beforeAll(async () => {
    root = await fs.mkdtemp(path.join(os.tmpdir(), 'ideact-nested-'));
    await fs.writeFile(path.join(root, 'a.json'), JSON.stringify(agentIdea('a', 'b')));
    await fs.writeFile(path.join(root, 'b.json'), JSON.stringify(agentIdea('b', 'a')));
  });
  afterAll(async () => {
    await fs.rm(root, { recursive: true, force: true });
  });

  it('R-MOD-5 A → B → A fails with MODULE_CYCLE naming the chain; the nested LLM sees it and the run still ends', async () => {
    const provider = new ScriptedProvider(script);
    const agent = createAgent({ tools: [topTool], provider, moduleRoot: root });
    const result = await agent.run({
      task: 'Start',
      context: [{ type: 'system', text: 'You are top.' }],
    });
    expect(result.output).toBe('top done');

    const a = nestedOf(result.state, 'a');
    const b = nestedOf(a, 'b');
    expect(a.chain.map((id) => path.basename(id))).toEqual(['a.json']);
    expect(b.chain.map((id) => path.basename(id))).toEqual(['a.json', 'b.json']);
    const cycle = b.nodes.find((node) => node.message.type === 'result')!.message;
    expect(cycle).toMatchObject({ type: 'result', error: { code: 'MODULE_CYCLE' } });
    expect(cycle.type === 'result' && cycle.error?.message).toMatch(/a\.json → b\.json → a\.json/);
    expect(b.nextStep).toMatchObject({
      module: 'done',
      args: { output: 'b done after MODULE_CYCLE' },
    });
  });

  it('R-MOD-5 depth is bounded: a module deeper than maxModuleDepth fails with MODULE_DEPTH', async () => {
    const provider = new ScriptedProvider(script);
    const agent = createAgent({ tools: [topTool], provider, moduleRoot: root, maxModuleDepth: 1 });
    const result = await agent.run({
      task: 'Start',
      context: [{ type: 'system', text: 'You are top.' }],
    });
    const a = nestedOf(result.state, 'a');
    const depth = a.nodes.find((node) => node.message.type === 'result')!.message;
    expect(depth).toMatchObject({ type: 'result', error: { code: 'MODULE_DEPTH' } });
    expect(a.nextStep).toMatchObject({
      module: 'done',
      args: { output: 'a done after MODULE_DEPTH' },
    });
  });
});

describe('nested agents: limits (R-MOD-5)', () => {
  let root: string;
  beforeAll(async () => {
    root = await fs.mkdtemp(path.join(os.tmpdir(), 'ideact-nested-limits-'));
    await fs.writeFile(path.join(root, 'a.json'), JSON.stringify(agentIdea('a', 'b')));
    await fs.writeFile(path.join(root, 'b.json'), JSON.stringify(agentIdea('b', 'a')));
  });
  afterAll(async () => {
    await fs.rm(root, { recursive: true, force: true });
  });

  it('R-MOD-5 a nested agent that hits its limit fails the module Call with NESTED_AGENT_STOPPED', async () => {
    const provider = new ScriptedProvider(script);
    const agent = createAgent({
      tools: [topTool],
      provider,
      moduleRoot: root,
      nestedLimits: { maxTurns: 1 },
    });
    const result = await agent.run({
      task: 'Start',
      context: [{ type: 'system', text: 'You are top.' }],
    });
    const call = result.state.nodes.find((node) => node.message.type === 'result')!;
    expect(call.message).toMatchObject({ error: { code: 'NESTED_AGENT_STOPPED' } });
    expect(call.message.type === 'result' && call.message.error?.message).toMatch(
      /a\.json.*max_turns/,
    );
    // The stopped nested state is still kept for inspection.
    expect(call.metadata.nested?.[0]?.nextStep).toMatchObject({
      module: 'done',
      args: { reason: 'max_turns' },
    });
  });
});

describe('container wiring and typed calls (R-LOOP-2)', () => {
  const weather: ToolSchema = {
    type: 'object',
    properties: { _tool: { const: 'weather' }, city: { type: 'string' } },
    required: ['_tool', 'city'],
  };
  const activities = [
    { weather: (params: Record<string, unknown>) => ({ city: params.city, tempC: 9 }) },
  ];

  it('R-LOOP-2 a step module registered in the container replaces the default', async () => {
    const provider = new ScriptedProvider([
      ScriptedProvider.options([
        { calls: [], output: 'first' },
        { calls: [], output: 'second' },
      ]),
      { choice: 2, reason: 'better' },
    ]);
    const container = createContainer({ tools: [weather], activities, provider });
    container.set(DISCRIMINATOR, new JudgeDiscriminator());
    const agent = agentFromContainer(container, { n: 2 });
    expect(agent).toBeInstanceOf(Agent);
    expect(agent.stepModules.discriminator).toBeInstanceOf(JudgeDiscriminator);
    expect((await agent.run({ task: 'pick' })).output).toBe('second');
    provider.assertComplete();
  });

  it('typed calls: agent.call(Tool, params) runs through the executor with the current context', async () => {
    const Weather: TypedToolReference<{ city: string }, { city: string; tempC: number }> = {
      toolName: 'weather',
    };
    const agent = createAgent({ tools: [weather], activities, provider: new ScriptedProvider([]) });
    const output = await agent.call(Weather, { city: 'Oslo' });
    expect(output.tempC).toBe(9);
    await expect(
      agent.call({ toolName: 'missing' } as TypedToolReference<object, unknown>, {}),
    ).rejects.toMatchObject({
      code: 'UNKNOWN_TOOL',
    });
  });
});

describe('nested agents: no output is not a silent null (issue 14 item 8)', () => {
  let root: string;
  beforeAll(async () => {
    root = await fs.mkdtemp(path.join(os.tmpdir(), 'ideact-nested-null-'));
    await fs.writeFile(path.join(root, 'a.json'), JSON.stringify(agentIdea('a', 'b')));
  });
  afterAll(async () => {
    await fs.rm(root, { recursive: true, force: true });
  });

  it('R-MOD-5 a nested agent that returns no Calls and a null output fails the Call with NESTED_AGENT_STOPPED (no_calls)', async () => {
    const provider = new ScriptedProvider([{ calls: [], output: null }]);
    const executor = executorWithNestedAgents({ provider, tools: [topTool], moduleRoot: root });
    const A: TypedToolReference<{ job: string }, string> = { toolName: 'a' };
    const error: unknown = await executor.call(A, { job: 'x' }).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(NestedAgentStoppedError.isInstance(error)).toBe(true);
    const stopped = error as NestedAgentStoppedError;
    expect(stopped.code).toBe('NESTED_AGENT_STOPPED');
    expect(stopped.reason).toBe('no_calls');
    expect(stopped.message).toContain('a.json');
    expect(stopped.message).toContain('no Calls and no output');
    provider.assertComplete();
  });
});
