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
});
