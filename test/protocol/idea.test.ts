import {
  InvalidIdeaError,
  findIdeaInput,
  invertIdea,
  parseIdea,
  readTool,
  type Idea,
} from 'ideact';

const composerIdea: Idea = {
  name: 'composer',
  description: 'Composes a melody for lyrics.',
  context: [
    { type: 'system', text: 'You are a composer.' },
    {
      type: 'input',
      input: { lyrics: 'la la' },
      schema: {
        type: 'object',
        properties: { lyrics: { type: 'string' }, tempo: { type: 'number' } },
        required: ['lyrics'],
      },
    },
  ],
  schema: { type: 'object', properties: { melody: { type: 'string' } }, required: ['melody'] },
};

describe('invertIdea (R-TOOL-1)', () => {
  it('turns the input schema into params and the Idea schema into _output', () => {
    expect(invertIdea(composerIdea)).toEqual({
      type: 'object',
      description: 'Composes a melody for lyrics.',
      properties: {
        _tool: { const: 'composer' },
        lyrics: { type: 'string' },
        tempo: { type: 'number' },
        _output: composerIdea.schema,
      },
      required: ['_tool', 'lyrics'],
    });
  });

  it('an explicit name wins over the Idea name', () => {
    expect(readTool(invertIdea(composerIdea, 'melodist')).name).toBe('melodist');
  });

  it('an Idea without input gives a tool without params', () => {
    const tool = invertIdea({ context: [], schema: { type: 'string' } }, 'haiku');
    expect(readTool(tool)).toMatchObject({
      name: 'haiku',
      params: { type: 'object', properties: {} },
      output: { type: 'string' },
    });
  });

  it('throws InvalidIdeaError asking for a name when neither is given', () => {
    expect(() => invertIdea({ context: [], schema: {} })).toThrow(InvalidIdeaError);
    expect(() => invertIdea({ context: [], schema: {} })).toThrow(/invertIdea\(idea, name\)/);
  });

  it('rejects an input schema that is not an object schema', () => {
    expect(() =>
      invertIdea(
        { context: [{ type: 'input', input: 1, schema: { type: 'number' } }], schema: {} },
        'n',
      ),
    ).toThrow(InvalidIdeaError);
  });
});

describe('findIdeaInput', () => {
  it('returns the merged input data and the last schema', () => {
    expect(
      findIdeaInput({
        context: [
          { type: 'input', input: { a: 1 }, schema: { type: 'object' } },
          { type: 'data', kind: 'input', data: { b: 2 } },
        ],
        schema: {},
      }),
    ).toEqual({ data: { a: 1, b: 2 }, schema: { type: 'object' } });
  });

  it('is undefined for an Idea without input', () => {
    expect(findIdeaInput({ context: [{ type: 'text', text: 'x' }], schema: {} })).toBeUndefined();
  });
});

describe('parseIdea', () => {
  it('accepts a valid Idea with every message type and returns it', () => {
    const value = {
      ...composerIdea,
      context: [
        ...composerIdea.context,
        { type: 'text', role: 'assistant', text: 'ok' },
        { type: 'data', kind: 'user', data: null, description: 'd', _instance: 'a' },
        { type: 'state', state: {} },
        { type: 'result', call: { _tool: 't' }, error: { code: 'C', message: 'm' } },
      ],
      solution: { melody: 'do re mi' },
    };
    expect(parseIdea(value, 'composer.json')).toEqual(value);
  });

  it('names the source, the JSON path and the expected message types', () => {
    const value = {
      context: [{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }, { type: 'foo' }],
      schema: {},
    };
    expect(() => parseIdea(value, 'composer.json')).toThrow(
      'Invalid Idea in composer.json at /context/2/type: unknown message type "foo" (expected system, text, data, input, state, result).',
    );
  });

  it.each([
    [[], '', /expected an object/],
    [{ schema: {} }, '/context', /expected an array of messages/],
    [{ context: [] }, '/schema', /expected a JSON Schema object/],
    [{ context: [], schema: {}, name: 5 }, '/name', /expected a string/],
    [{ context: [{ type: 'text' }], schema: {} }, '/context/0/text', /expected a string/],
    [
      { context: [{ type: 'text', text: 'x', role: 'bot' }], schema: {} },
      '/context/0/role',
      /"user" or "assistant"/,
    ],
    [{ context: [{ type: 'data', kind: 'k' }], schema: {} }, '/context/0/data', /needs "data"/],
    [{ context: [{ type: 'input', schema: {} }], schema: {} }, '/context/0/input', /needs "input"/],
    [
      { context: [{ type: 'state', state: 1, schema: 'x' }], schema: {} },
      '/context/0/schema',
      /JSON Schema/,
    ],
    [{ context: [{ type: 'data', data: 1, kind: 3 }], schema: {} }, '/context/0/kind', /string/],
    [{ context: [{ type: 'result', call: {} }], schema: {} }, '/context/0/call/_tool', /tool name/],
    [
      { context: [{ type: 'result', call: { _tool: 't' }, error: 'x' }], schema: {} },
      '/context/0/error',
      /code/,
    ],
  ])('rejects %j at %s', (value, jsonPath, message) => {
    let caught: unknown;
    try {
      parseIdea(value, 'idea.json');
    } catch (error) {
      caught = error;
    }
    expect(InvalidIdeaError.isInstance(caught)).toBe(true);
    expect((caught as InvalidIdeaError).jsonPath).toBe(jsonPath);
    expect((caught as InvalidIdeaError).source).toBe('idea.json');
    expect((caught as InvalidIdeaError).message).toMatch(message);
  });
});
