import {
  Executor,
  executorWithNestedAgents,
  OpenAIProvider,
  type Idea,
  type JSONSchema,
  type ProviderRequest,
  type TypedToolReference,
} from 'ideact';
import { ScriptedProvider } from 'ideact/testing';
import { startChatCompletionsServer } from '../support/chat-completions-server';
import {
  IMPORTABLE,
  makeModuleRoot,
  parentContext,
  removeRoot,
  SECRET,
  tool,
} from './executor-fixtures';

/**
 * Item 7 of issue 14: a module sub-request carries the Tool's own words (R-MOD-1 clean room): its
 * description (and the module Idea's) as the first message, and the module schema's description,
 * in the schema for one request or in that message for a nested agent, which rebuilds the Vessel.
 */
const SUMMARY_SCHEMA: JSONSchema = {
  type: 'object',
  description: 'IDEA-SCHEMA-DESCRIPTION: one summary of the text',
  properties: { summary: { type: 'string' } },
  required: ['summary'],
  additionalProperties: false,
};

const summarizeIdea: Idea = {
  name: 'summarize',
  description: 'IDEA-DESCRIPTION: summarises texts',
  context: [
    { type: 'system', text: 'MODULE-SYSTEM: summarise the input.' },
    {
      type: 'input',
      input: { text: 'example' },
      schema: { type: 'object', properties: { text: { type: 'string' } } },
    },
  ],
  schema: SUMMARY_SCHEMA,
};

/** A Vessel schema offering one inline latent tool `note` (an agent Idea, R-MOD-5). */
function noteVessel(description: string): JSONSchema {
  return {
    type: 'object',
    description,
    properties: {
      calls: {
        type: 'array',
        items: {
          anyOf: [
            {
              type: 'object',
              description: 'INNER-TOOL-DESCRIPTION',
              properties: {
                _tool: { const: 'note' },
                text: { type: 'string' },
                _output: { type: 'string' },
              },
              required: ['_tool', 'text'],
            },
          ],
        },
      },
      output: {
        anyOf: [
          {
            type: 'object',
            description: 'VESSEL-OUTPUT-DESCRIPTION',
            properties: { verdict: { type: 'string' } },
            required: ['verdict'],
            additionalProperties: false,
          },
          { type: 'null' },
        ],
      },
    },
    required: ['calls', 'output'],
    additionalProperties: false,
  };
}

const reviewIdea: Idea = {
  name: 'review',
  description: 'IDEA-DESCRIPTION: reviews a draft',
  context: [{ type: 'system', text: 'MODULE-SYSTEM: review the draft.' }],
  schema: noteVessel('VESSEL-SCHEMA-DESCRIPTION: take notes, then give a verdict'),
};

let root: string;
beforeAll(async () => {
  root = await makeModuleRoot({ 'summarize.json': summarizeIdea, 'review.json': reviewIdea });
});
afterAll(() => removeRoot(root));

function described(name: string, description: string, properties: Record<string, unknown>) {
  return { ...tool(name, properties), description };
}

/** Everything a request sent, as one string (messages and schema). */
function sent(request: ProviderRequest | undefined): string {
  return JSON.stringify(request);
}

function expectNoParentContext(text: string): void {
  for (const secret of [...Object.values(SECRET), IMPORTABLE.input, IMPORTABLE.state]) {
    expect(text).not.toContain(secret);
  }
}

describe('R-MOD-1 a module sub-request carries the Tool description and the module schema description', () => {
  it('file module, latent: the brief names the tool with its and the Idea descriptions; the schema keeps its description', async () => {
    const provider = new ScriptedProvider([{ summary: 'done' }]);
    const executor = new Executor({
      provider,
      moduleRoot: root,
      tools: [
        described('summarize', 'TOOL-DESCRIPTION-FILE: summarise for the report', {
          text: { type: 'string' },
          _module: { const: 'summarize.json' },
        }),
      ],
    });
    await executor.call({ _tool: 'summarize', text: 'PARAM-TEXT' }, parentContext());

    const [request] = provider.requests;
    expect(request?.messages[0]).toEqual({
      role: 'system',
      content: [
        '## Tool: summarize',
        'TOOL-DESCRIPTION-FILE: summarise for the report',
        'IDEA-DESCRIPTION: summarises texts',
      ].join('\n'),
    });
    expect(request?.messages[1]?.content).toBe('MODULE-SYSTEM: summarise the input.');
    expect(request?.schema.description).toBe(SUMMARY_SCHEMA.description);
    expect(sent(request)).toContain('PARAM-TEXT');
    expectNoParentContext(sent(request));
  });

  it('anonymous module, latent: the brief holds the tool description; the _output schema keeps its description', async () => {
    const provider = new ScriptedProvider([{ summary: 'anon' }]);
    const executor = new Executor({
      provider,
      tools: [
        described('digest', 'TOOL-DESCRIPTION-ANON: digest a topic', {
          topic: { type: 'string' },
          _module: { const: 'anonymous' },
          _output: { ...SUMMARY_SCHEMA, description: 'OUTPUT-SCHEMA-DESCRIPTION' },
        }),
      ],
    });
    await executor.call({ _tool: 'digest', topic: 'PARAM-TOPIC' }, parentContext());

    const [request] = provider.requests;
    expect(request?.messages[0]).toEqual({
      role: 'system',
      content: '## Tool: digest\nTOOL-DESCRIPTION-ANON: digest a topic',
    });
    expect(request?.schema.description).toBe('OUTPUT-SCHEMA-DESCRIPTION');
    expectNoParentContext(sent(request));
  });

  it('without any description the clean room is unchanged: no brief message', async () => {
    const provider = new ScriptedProvider([{ summary: 'plain' }]);
    const executor = new Executor({
      provider,
      tools: [
        tool('digest', {
          _module: { const: 'anonymous' },
          _output: { type: 'object', properties: { summary: { type: 'string' } } },
        }),
      ],
    });
    await executor.call({ _tool: 'digest' }, parentContext());
    expect(provider.requests[0]?.messages.map((message) => message.role)).toEqual(['user']);
  });

  it('file module, nested agent (R-MOD-5): the brief carries the Vessel schema description the rebuilt Vessel drops', async () => {
    const provider = new ScriptedProvider([
      { calls: [{ _tool: 'note', text: 'n1', _output: 'noted' }], output: null },
      { calls: [], output: { verdict: 'good' } },
    ]);
    const executor = executorWithNestedAgents({
      provider,
      moduleRoot: root,
      tools: [
        described('review', 'TOOL-DESCRIPTION-NESTED: review the draft for the editor', {
          draft: { type: 'string' },
          _module: { const: 'review.json' },
        }),
      ],
    });
    const messages = await executor.call(
      { _tool: 'review', draft: 'PARAM-DRAFT' },
      parentContext(),
    );
    expect(messages[0]).toMatchObject({ type: 'result', output: { verdict: 'good' } });

    expect(provider.requests).toHaveLength(2);
    for (const request of provider.requests) {
      expect(request.messages[0]).toEqual({
        role: 'system',
        content: [
          '## Tool: review',
          'TOOL-DESCRIPTION-NESTED: review the draft for the editor',
          'IDEA-DESCRIPTION: reviews a draft',
          'VESSEL-SCHEMA-DESCRIPTION: take notes, then give a verdict',
        ].join('\n'),
      });
      // The rebuilt Vessel keeps the output's and the inner tool's descriptions.
      expect(sent(request)).toContain('VESSEL-OUTPUT-DESCRIPTION');
      expect(sent(request)).toContain('INNER-TOOL-DESCRIPTION');
      expect(sent(request)).toContain('PARAM-DRAFT');
      expectNoParentContext(sent(request));
    }
  });

  it('anonymous module, nested agent (R-MOD-5): a Vessel _output runs as an agent whose brief holds both descriptions', async () => {
    const provider = new ScriptedProvider([{ calls: [], output: { verdict: 'fine' } }]);
    const executor = executorWithNestedAgents({
      provider,
      tools: [
        described('quickReview', 'TOOL-DESCRIPTION-ANON-NESTED: a quick review', {
          draft: { type: 'string' },
          _module: { const: 'anonymous' },
          _output: noteVessel('ANON-VESSEL-DESCRIPTION: decide quickly'),
        }),
      ],
    });
    const output = await executor.call(
      { toolName: 'quickReview' } as TypedToolReference<{ draft: string }, unknown>,
      { draft: 'PARAM-DRAFT' },
      parentContext(),
    );
    expect(output).toEqual({ verdict: 'fine' });
    const [request] = provider.requests;
    expect(request?.messages[0]).toEqual({
      role: 'system',
      content: [
        '## Tool: quickReview',
        'TOOL-DESCRIPTION-ANON-NESTED: a quick review',
        'ANON-VESSEL-DESCRIPTION: decide quickly',
      ].join('\n'),
    });
    expect(sent(request)).toContain('VESSEL-OUTPUT-DESCRIPTION');
    expectNoParentContext(sent(request));
  });

  it('through the OpenAI provider (strict json_schema): the brief is the first message and the schema description survives', async () => {
    const server = await startChatCompletionsServer([{ json: { summary: 'strict' } }]);
    try {
      const executor = new Executor({
        provider: new OpenAIProvider({
          apiKey: 'sk-test',
          baseURL: server.baseURL,
          model: 'test-model',
          env: {},
        }),
        moduleRoot: root,
        tools: [
          described('summarize', 'TOOL-DESCRIPTION-FILE: summarise for the report', {
            _module: { const: 'summarize.json' },
          }),
        ],
      });
      const messages = await executor.call({ _tool: 'summarize' }, parentContext());
      expect(messages[0]).toMatchObject({ output: { summary: 'strict' } });
      const body = server.requests[0]?.body as {
        messages: Array<{ role: string; content: string }>;
        response_format: { json_schema: { schema: JSONSchema } };
      };
      expect(body.messages[0]?.role).toBe('system');
      expect(body.messages[0]?.content).toContain('TOOL-DESCRIPTION-FILE');
      expect(body.response_format.json_schema.schema.description).toBe(SUMMARY_SCHEMA.description);
      expectNoParentContext(JSON.stringify(body));
    } finally {
      await server.close();
    }
  });
});
