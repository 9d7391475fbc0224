import { IsString } from 'class-validator';
import {
  Activity,
  createAgent,
  createContainer,
  disposeContainer,
  Executor,
  getMetadataStorage,
  Tool,
  TOOLS,
  type JSONSchema,
  type ResultMessage,
  type ToolSchema,
} from 'ideact';
import { ScriptedProvider } from 'ideact/testing';

beforeEach(() => getMetadataStorage().reset());

function tool(name: string, params: Record<string, JSONSchema>, description?: string): ToolSchema {
  return {
    type: 'object',
    ...(description === undefined ? {} : { description }),
    properties: { _tool: { const: name }, ...params },
    required: ['_tool'],
  };
}

const oldLookup = tool('lookup', { q: { type: 'string' } }, 'the old lookup');
const newLookup = tool('lookup', { query: { type: 'string' } }, 'the new lookup');

/** The `_tool` names offered by a Vessel schema, in order. */
function offered(vessel: JSONSchema): Array<{ name: unknown; description?: string }> {
  const items = vessel.properties!.calls!.items as JSONSchema;
  return (items.anyOf ?? []).map((call) => ({
    name: (call.properties!._tool as JSONSchema).const,
    description: call.description,
  }));
}

describe('R-TOOL-5 a tool defined twice in one tools list: the later definition wins', () => {
  it('an agent with two definitions of one tool shows the model only the later one and runs it', async () => {
    const provider = new ScriptedProvider([
      { calls: [{ _tool: 'lookup', query: 'owls' }], output: null },
      { calls: [], output: 'done' },
    ]);
    const seen: unknown[] = [];
    const agent = createAgent({
      tools: [oldLookup, newLookup],
      provider,
      activities: [{ lookup: (params: unknown) => (seen.push(params), 'found') }],
    });
    const result = await agent.run({ context: [{ type: 'text', text: 'look up owls' }] });
    expect(result.output).toBe('done');
    expect(offered(provider.requests[0]!.schema)).toEqual([
      { name: 'lookup', description: 'the new lookup' },
    ]);
    expect(seen).toEqual([{ query: 'owls' }]);
  });

  it('createContainer: a ToolSchema after a @Tool class of the same name replaces it, params transformer included', async () => {
    @Tool({ name: 'lookup' })
    @Activity('lookup')
    class Lookup {
      @IsString()
      q!: string;
    }
    const provider = new ScriptedProvider([]);
    const seen: unknown[] = [];
    const container = createContainer({
      tools: [Lookup, newLookup],
      provider,
      activities: [{ lookup: (params: unknown) => (seen.push(params), 'ok') }],
    });
    try {
      expect(container.get(TOOLS)).toEqual([newLookup]);
      const [message] = await container.get(Executor).call({ _tool: 'lookup', query: 'owls' }, []);
      expect((message as ResultMessage).output).toBe('ok');
      // The class's transformer is gone with its definition: the params stay a plain object.
      expect(seen).toEqual([{ query: 'owls' }]);
      expect(seen[0]).not.toBeInstanceOf(Lookup);
    } finally {
      disposeContainer(container);
    }
  });

  it('new Executor with schemas: the later definition runs (before: InvalidSchemaError)', async () => {
    const executor = new Executor({
      provider: new ScriptedProvider([]),
      tools: [
        tool('answer', { _output: { type: 'string' } }),
        tool('answer', { _output: { type: 'number' } }),
      ],
    });
    expect(executor.tools).toHaveLength(1);
    const [ok] = await executor.call({ _tool: 'answer', _output: 42 }, []);
    expect((ok as ResultMessage).output).toBe(42);
    const [bad] = await executor.call({ _tool: 'answer', _output: 'text' }, []);
    expect((bad as ResultMessage).error?.code).toBe('INVALID_CALL_OUTPUT');
  });
});
