import fc from 'fast-check';
import { formatJson, renderMessages, type Message } from 'ideact';

/** Seed 004's example, exactly as the seed writes it (template-literal indentation removed). */
const SEED_004_CONTEXT: Message[] = [
  { type: 'text', text: "Update the user's city to Austin" },
  {
    type: 'data',
    kind: 'user',
    description: 'Represents the current user.',
    data: { name: 'John Doe' },
    schema: {
      type: 'object',
      properties: {
        name: { type: 'string' },
        age: { type: 'number' },
        city: { type: 'string' },
      },
    },
  },
  { type: 'data', kind: 'user', data: { age: 30 } },
];

const SEED_004_BLOCK = [
  '## Data: ¶user',
  '{',
  '  "name": "John Doe",',
  '  "age": 30',
  '}',
  'Represents the current user.',
  'Schema for ¶user:',
  '{',
  '  "type": "object",',
  '  "properties": {',
  '    "name": { "type": "string" },',
  '    "age": { "type": "number" },',
  '    "city": { "type": "string" }',
  '  }',
  '}',
].join('\n');

describe('renderMessages', () => {
  it('R-DATA-2: renders seed 004 byte-exact (text passes through, two user data messages → one block)', () => {
    expect(renderMessages(SEED_004_CONTEXT)).toEqual([
      { role: 'user', content: "Update the user's city to Austin" },
      { role: 'user', content: SEED_004_BLOCK },
    ]);
  });

  it('R-DATA-2: does not mutate its input', () => {
    const copy = structuredClone(SEED_004_CONTEXT);
    renderMessages(SEED_004_CONTEXT);
    expect(SEED_004_CONTEXT).toEqual(copy);
  });

  it('R-DATA-3: formatJson keeps the given key order', () => {
    expect(formatJson({ b: 1, a: 2 })).toBe('{\n  "b": 1,\n  "a": 2\n}');
  });

  it('R-DATA-2: omits the description line without description and the schema part without schema', () => {
    expect(renderMessages([{ type: 'data', kind: 'user', data: { a: 1 } }])).toEqual([
      { role: 'user', content: '## Data: ¶user\n{\n  "a": 1\n}' },
    ]);
  });

  it('R-DATA-2: a data message without kind renders as "## Data" with "Schema:"', () => {
    expect(
      renderMessages([
        { type: 'data', data: [1], schema: { type: 'array' }, description: 'Numbers.' },
      ]),
    ).toEqual([
      { role: 'user', content: '## Data\n[\n  1\n]\nNumbers.\nSchema:\n{\n  "type": "array"\n}' },
    ]);
  });

  it('R-DATA-2 / R-INST-1: the heading names the instance; instances render as separate blocks', () => {
    const rendered = renderMessages([
      { type: 'state', state: { n: 1 }, _instance: '①' },
      { type: 'state', state: { n: 2 }, _instance: '②' },
      { type: 'input', input: 'go' },
    ]);
    expect(rendered.map((message) => message.content)).toEqual([
      '## Data: ¶state (instance ①)\n{\n  "n": 1\n}',
      '## Data: ¶state (instance ②)\n{\n  "n": 2\n}',
      '## Data: ¶input\n"go"',
    ]);
  });

  it('R-DATA-2: system → role system; text keeps its role (user by default) and its text unchanged', () => {
    expect(
      renderMessages([
        { type: 'system', text: 'Be brief.' },
        { type: 'text', role: 'assistant', text: '  spaced\n text ' },
        { type: 'text', text: 'hello' },
      ]),
    ).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'assistant', content: '  spaced\n text ' },
      { role: 'user', content: 'hello' },
    ]);
  });

  it('renders a result as "## Result of <tool>", the call without _output, then the output', () => {
    const [rendered] = renderMessages([
      {
        type: 'result',
        call: { _tool: 'weather', city: 'Austin', _output: { long: 'omitted' } },
        output: { temperature: 31 },
      },
    ]);
    expect(rendered).toEqual({
      role: 'user',
      content: [
        '## Result of weather',
        '{',
        '  "_tool": "weather",',
        '  "city": "Austin"',
        '}',
        'Output:',
        '{',
        '  "temperature": 31',
        '}',
      ].join('\n'),
    });
  });

  it('renders a failed result as "Error <code>: <message>"', () => {
    const [rendered] = renderMessages([
      {
        type: 'result',
        call: { _tool: 'weather', city: 'Nowhere' },
        error: { code: 'ACTIVITY_FAILED', message: 'City not found.' },
      },
    ]);
    expect(rendered?.content).toBe(
      '## Result of weather\n{\n  "_tool": "weather",\n  "city": "Nowhere"\n}\nError ACTIVITY_FAILED: City not found.',
    );
  });

  it('R-DATA-3 property: rendering is deterministic (equal inputs → byte-identical output)', () => {
    const message = fc.oneof(
      fc.record({ type: fc.constant('text' as const), text: fc.string() }),
      fc.record(
        {
          type: fc.constant('data' as const),
          kind: fc.constantFrom('user', 'state', 'input'),
          data: fc.jsonValue(),
          description: fc.string(),
          schema: fc.constant({ type: 'object' }),
          _instance: fc.constantFrom('a', 'b'),
        },
        { requiredKeys: ['type', 'data'] },
      ),
      fc.record({ type: fc.constant('state' as const), state: fc.jsonValue() }),
    );
    fc.assert(
      fc.property(fc.array(message, { maxLength: 8 }), (messages) => {
        const first = renderMessages(messages as Message[]);
        const second = renderMessages(structuredClone(messages) as Message[]);
        expect(JSON.stringify(second)).toBe(JSON.stringify(first));
      }),
    );
  });
});
