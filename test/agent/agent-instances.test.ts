import { viewOfKind, type JSONSchema, type Message, type ToolSchema } from 'ideact';
import { scriptedAgent, vessel } from './helpers';

const double: ToolSchema = {
  type: 'object',
  properties: {
    _tool: { const: 'double' },
    _outputPath: { const: 'doubled' },
    value: { type: 'number' },
  },
  required: ['_tool', 'value'],
};

describe('Agent with instances (R-INST-1)', () => {
  it('offers `_instance` in the Vessel; references and output paths are routed per instance', async () => {
    const { agent, provider } = scriptedAgent(
      [
        vessel([
          { _tool: 'double', _instance: 'a', value: '†state.value' },
          { _tool: 'double', _instance: 'b', value: '†state.value' },
        ]),
        vessel([], 'done'),
      ],
      { tools: [double], activities: { double: (params) => Number(params.value) * 2 } },
    );
    const context: Message[] = [
      { type: 'state', state: { value: 1 }, _instance: 'a' },
      { type: 'state', state: { value: 10 }, _instance: 'b' },
    ];
    const result = await agent.run({ context, instances: ['a', 'b'] });
    expect(result.output).toBe('done');
    expect(result.state.instances).toEqual(['a', 'b']);

    const calls = (provider.requests[0]!.schema.properties!.calls as JSONSchema)
      .items as JSONSchema;
    const [callSchema] = calls.anyOf as JSONSchema[];
    expect(callSchema!.properties!._instance).toMatchObject({ enum: ['a', 'b'] });

    const messages = result.state.nodes.map((node) => node.message) as Message[];
    expect(viewOfKind(messages, 'state', 'a')?.data).toEqual({ value: 1, doubled: 2 });
    expect(viewOfKind(messages, 'state', 'b')?.data).toEqual({ value: 10, doubled: 20 });
  });
});
