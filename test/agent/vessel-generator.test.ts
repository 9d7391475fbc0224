import {
  Agent,
  Executor,
  Toolkit,
  type JSONSchema,
  type MessageHandler,
  type ToolSchema,
} from 'ideact';
import { ScriptedProvider } from 'ideact/testing';
import { scriptedAgent, vessel } from './helpers';

/** A tool with an `_output` schema whose Activity is registered under the tool's own name. */
const reportTool: ToolSchema = {
  type: 'object',
  properties: {
    _tool: { const: 'report' },
    days: { type: 'integer', minimum: 1 },
    _output: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  },
  required: ['_tool', 'days'],
};

function callSchemas(schema: JSONSchema): JSONSchema[] {
  const calls = schema.properties?.calls as JSONSchema;
  return ((calls.items as JSONSchema).anyOf ?? []) as JSONSchema[];
}

describe('VesselGenerator: the Vessel the LLM is offered', () => {
  it('R-TOOL-2 hides `_output` of a tool made explicit by a same-name Activity (the LLM must not write it)', async () => {
    const { agent, provider } = scriptedAgent(
      [vessel([{ _tool: 'report', days: 2 }]), vessel([], 'done')],
      {
        tools: [reportTool],
        activities: { report: (params) => ({ text: `${String(params.days)} days` }) },
      },
    );
    const result = await agent.run({ task: 'Report' });
    expect(result.output).toBe('done');
    const [schema] = callSchemas(provider.requests[0]!.schema);
    expect(Object.keys(schema!.properties ?? {})).toEqual(['_reasoningForCall', '_tool', 'days']);
    expect(schema!.required).toEqual(['_tool', 'days']);
  });

  it('R-CALL-2 keeps `_output` required for the same tool when nothing implements it (inline latent)', async () => {
    const { agent, provider } = scriptedAgent(
      [vessel([{ _tool: 'report', days: 2, _output: { text: 'two days' } }]), vessel([], 'done')],
      { tools: [reportTool], activities: {} },
    );
    await agent.run({ task: 'Report' });
    const [schema] = callSchemas(provider.requests[0]!.schema);
    expect(schema!.required).toEqual(['_tool', 'days', '_output']);
  });

  it('R-VAR-1 offers a †reference in place of a non-string param, and the reference reaches the Activity resolved', async () => {
    const seen: unknown[] = [];
    const { agent, provider } = scriptedAgent(
      [vessel([{ _tool: 'report', days: '†input.days' }]), vessel([], 'done')],
      {
        tools: [reportTool],
        activities: { report: (params) => (seen.push(params.days), { text: 'ok' }) },
      },
    );
    await agent.run({ context: [{ type: 'input', input: { days: 3 } }] });
    const [schema] = callSchemas(provider.requests[0]!.schema);
    expect(schema!.properties!.days).toEqual({
      anyOf: [
        { type: 'integer', minimum: 1 },
        expect.objectContaining({ type: 'string', pattern: '^†' }),
      ],
    });
    expect(seen).toEqual([3]);
  });
});

describe('VesselGenerator: what the Prompter rendered is what the provider gets (R-REQ-2)', () => {
  it('runs each handler once per turn and sends the model its handlers chose', async () => {
    let textRenders = 0;
    const shout: MessageHandler = {
      name: 'shout',
      matches: (message) => message.type === 'text',
      render: (message) => {
        textRenders += 1;
        return [{ role: 'user', content: message.type === 'text' ? `${message.text}!` : '' }];
      },
      finish: (draft) => {
        draft.config.model = 'handler-model';
      },
    };
    const provider = new ScriptedProvider([vessel([], 'done')]);
    const tools = [reportTool];
    const agent = new Agent({
      provider,
      toolkit: new Toolkit({ tools }),
      executor: new Executor({ provider, tools }),
      handlers: [shout],
    });
    await agent.run({ task: 'Hello' });
    expect(textRenders).toBe(1);
    expect(provider.requests[0]!.messages).toEqual([{ role: 'user', content: 'Hello!' }]);
    expect(provider.requests[0]!.model).toBe('handler-model');
    expect(provider.requests[0]!.schemaName).toBe('vessel');
  });
});
