import {
  OpenAIProvider,
  buildVesselSchema,
  fromStrictSolution,
  toStrictSchema,
  validateJson,
  type JSONSchema,
  type ToolSchema,
} from 'ideact';
import {
  startChatCompletionsServer,
  type ChatCompletionsServer,
} from '../support/chat-completions-server';
import { expectStrict } from './expect-strict';

const paint: ToolSchema = {
  type: 'object',
  properties: {
    _tool: { const: 'paint' },
    color: { type: 'string', enum: ['red', 'blue'] },
    coats: { type: 'integer', minimum: 1 },
    note: { type: 'string' },
  },
  required: ['_tool', 'color'],
};
const vessel = buildVesselSchema([paint]);

/** The call schema of `paint` inside a (strict) Vessel schema. */
function paintCall(schema: JSONSchema): JSONSchema {
  const items = schema.properties!.calls!.items as JSONSchema;
  return items.anyOf ? items.anyOf[0]! : items;
}

const servers: ChatCompletionsServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
});

describe('strict decoding keeps enums and numbers strict (issue 14 item 5, R-VAR-1)', () => {
  it('the OpenAI strict request body keeps the reference alternative’s pattern ^† and stays strict-valid', async () => {
    const server = await startChatCompletionsServer([
      {
        json: {
          calls: [
            { _reasoningForCall: null, _tool: 'paint', color: 'red', coats: null, note: null },
          ],
          output: null,
        },
      },
    ]);
    servers.push(server);
    const provider = new OpenAIProvider({
      apiKey: 'sk-test',
      baseURL: server.baseURL,
      model: 'test-model',
      env: {},
    });
    const response = await provider.generate({
      messages: [{ role: 'user', content: 'Paint it.' }],
      schema: vessel,
      schemaName: 'vessel',
    });
    expect(response.options).toEqual([{ calls: [{ _tool: 'paint', color: 'red' }], output: null }]);

    const format = server.requests[0]!.body.response_format as {
      json_schema: { schema: JSONSchema; strict: boolean };
    };
    expect(format.json_schema.strict).toBe(true);
    const sent = format.json_schema.schema;
    expectStrict(sent);
    const call = paintCall(sent);
    for (const param of ['color', 'coats'] as const) {
      const alternatives = call.properties![param]!.anyOf!;
      expect(alternatives).toContainEqual(
        expect.objectContaining({ type: 'string', pattern: '^†' }),
      );
      // no alternative admits a plain string: each string branch is the enum or the pattern
      for (const branch of alternatives) {
        if (branch.type === 'string') expect(branch.enum ?? branch.pattern).toBeDefined();
      }
    }

    // What strict decoding may produce: a wrong enum value or a word for a number is not valid.
    const reply = (color: unknown, coats: unknown): unknown => ({
      calls: [{ _reasoningForCall: null, _tool: 'paint', color, coats, note: null }],
      output: null,
    });
    expect(validateJson(sent, reply('purple', null))).not.toEqual([]);
    expect(validateJson(sent, reply('red', 'two'))).not.toEqual([]);
    expect(validateJson(sent, reply('†state.color', '†input.coats'))).toEqual([]);
    expect(validateJson(sent, reply('blue', 2))).toEqual([]);
    expect(fromStrictSolution(reply('†state.color', 2), vessel)).toEqual({
      calls: [{ _tool: 'paint', color: '†state.color', coats: 2 }],
      output: null,
    });
  });

  it('a string pattern stays in the strict schema; one with lookaround or a backreference moves into the description', () => {
    const schema: JSONSchema = {
      type: 'object',
      properties: {
        zip: { type: 'string', pattern: '^[0-9]{5}$' },
        word: { type: 'string', pattern: '^(?!tmp)[a-z]+$' },
        twice: { type: 'string', pattern: '^(a)\\1$' },
      },
      required: ['zip', 'word', 'twice'],
    };
    const strict = toStrictSchema(schema);
    expectStrict(strict);
    expect(strict.properties).toEqual({
      zip: { type: 'string', pattern: '^[0-9]{5}$' },
      word: { type: 'string', description: 'Constraints: pattern: "^(?!tmp)[a-z]+$"' },
      twice: { type: 'string', description: 'Constraints: pattern: "^(a)\\\\1$"' },
    });
  });
});
