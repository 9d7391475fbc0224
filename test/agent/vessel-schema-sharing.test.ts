import { createAgent, type JSONSchema } from 'ideact';
import { ScriptedProvider } from 'ideact/testing';
import { scriptedAgent, vessel } from './helpers';

// Runs of one agent share the Vessel schema and its validator (issue 28), keyed by the Tools and
// the output schema object; what each run is offered and checked against must stay its own (R-LOOP-2).
describe('the Vessel schema shared by the runs of one agent', () => {
  it('two runs with one output schema object are offered equal schemas and both answer', async () => {
    const output: JSONSchema = {
      type: 'object',
      properties: { answer: { type: 'string' } },
      required: ['answer'],
    };
    const { agent, provider } = scriptedAgent([
      vessel([], { answer: 'one' }),
      vessel([], { answer: 'two' }),
    ]);
    const first = await agent.run({ task: 'First?', output });
    const second = await agent.run({ task: 'Second?', output });
    expect([first.output, second.output]).toEqual([{ answer: 'one' }, { answer: 'two' }]);
    expect(provider.requests[1]?.schema).toEqual(provider.requests[0]?.schema);
  });

  it('an output schema edited in place between runs is a new schema: offered and enforced', async () => {
    const output: JSONSchema = {
      type: 'object',
      properties: { answer: { type: 'string' } },
      required: ['answer'],
    };
    // validate: false lets the script answer what the edited schema forbids (the run must repair it).
    const provider = new ScriptedProvider(
      [vessel([], { answer: 'text' }), vessel([], { answer: 'more text' })],
      { validate: false },
    );
    const agent = createAgent({ tools: [], provider });
    // Two runs first: the second finds the schema the first one shared.
    expect((await agent.run({ task: 'First?', output })).output).toEqual({ answer: 'text' });
    expect((await agent.run({ task: 'Again?', output })).output).toEqual({ answer: 'more text' });

    (output.properties as Record<string, JSONSchema>).answer = { type: 'integer' };
    provider.push(vessel([], { answer: 'still text' }), vessel([], { answer: 42 }));
    const second = await agent.run({ task: 'Second?', output });
    expect(second.output).toEqual({ answer: 42 });
    // The first reply broke the edited schema: it was repaired (one more request), not accepted.
    expect(provider.requests).toHaveLength(4);
    expect(JSON.stringify(provider.requests[2]?.schema)).toContain('"integer"');
  });
});
