import {
  InvalidVesselError,
  UnknownToolError,
  buildVesselSchema,
  callSchema,
  parseVessel,
  validateJson,
  type ToolSchema,
} from 'ideact';

const weather: ToolSchema = {
  type: 'object',
  description: 'Current weather for a city.',
  properties: {
    _tool: { const: 'weather' },
    _activity: { const: 'fetchWeather' },
    city: { type: 'string' },
    unit: { enum: ['C', 'F'] },
    _output: { type: 'number' },
    _imports: { const: ['input'] },
    _outputPath: { const: 'weather' },
  },
  required: ['_tool', 'city'],
};

const lyricist: ToolSchema = {
  type: 'object',
  description: 'Writes lyrics.',
  properties: {
    _output: { type: 'object', properties: { lyrics: { type: 'string' } }, required: ['lyrics'] },
    topic: { type: 'string' },
    _tool: { const: 'lyricist' },
    _outputPath: { enum: ['lyrics', 'draft'] },
    _imports: { type: 'array', items: { enum: ['input', 'state'] } },
  },
  required: ['topic'],
};

const composer: ToolSchema = {
  type: 'object',
  properties: {
    _tool: { const: 'composer' },
    _module: { const: 'composer.json' },
    _resolution: { const: 'upfront' },
    style: { type: 'string' },
    _output: { type: 'string' },
  },
};

describe('callSchema (seed 002 vessel)', () => {
  it('orders _reasoningForCall first, then _tool and params; hides _activity, fixed _imports/_outputPath', () => {
    const schema = callSchema(weather);
    expect(Object.keys(schema.properties ?? {})).toEqual([
      '_reasoningForCall',
      '_tool',
      'city',
      'unit',
    ]);
    expect(schema).toMatchObject({
      type: 'object',
      description: 'Current weather for a city.',
      required: ['_tool', 'city'],
      additionalProperties: false,
    });
    expect(schema.properties?._tool).toEqual({ const: 'weather' });
  });

  it('shows _output for an inline latent tool and the LLM-chosen _outputPath / _imports', () => {
    const schema = callSchema(lyricist);
    expect(Object.keys(schema.properties ?? {})).toEqual([
      '_reasoningForCall',
      '_tool',
      'topic',
      '_output',
      '_outputPath',
      '_imports',
    ]);
    expect(schema.required).toEqual(['_tool', 'topic', '_output']);
    expect(schema.properties?._imports).toEqual({
      type: 'array',
      items: { enum: ['input', 'state'] },
    });
  });

  it('hides _module, _resolution and _output of a module tool', () => {
    expect(Object.keys(callSchema(composer).properties ?? {})).toEqual([
      '_reasoningForCall',
      '_tool',
      'style',
    ]);
  });

  it('hides _output when an Activity is registered under the tool name (activities option)', () => {
    const named: ToolSchema = {
      type: 'object',
      properties: { _tool: { const: 'lyricist' }, _output: { type: 'string' } },
    };
    expect(
      callSchema(named, { activities: new Set(['lyricist']) }).properties?._output,
    ).toBeUndefined();
    expect(callSchema(named, { activities: new Set() }).properties?._output).toBeDefined();
  });

  it('offers _instance only when instances are given (R-INST-1)', () => {
    expect(callSchema(weather).properties?._instance).toBeUndefined();
    expect(callSchema(weather, { instances: ['①', '②'] }).properties?._instance).toMatchObject({
      type: 'string',
      enum: ['①', '②'],
    });
  });
});

describe('buildVesselSchema / parseVessel', () => {
  const tools = [weather, lyricist, composer];

  it('builds { calls: anyOf(call schemas), output: <output> | null }', () => {
    const output = { type: 'object', properties: { answer: { type: 'string' } } };
    const schema = buildVesselSchema(tools, output);
    expect(schema).toMatchObject({
      type: 'object',
      required: ['calls', 'output'],
      additionalProperties: false,
      properties: {
        calls: { type: 'array', items: { anyOf: tools.map((tool) => callSchema(tool)) } },
        output: { anyOf: [output, { type: 'null' }] },
      },
    });
  });

  it('defaults the output to a final answer string or null', () => {
    const schema = buildVesselSchema(tools);
    expect(validateJson(schema, { calls: [], output: 'Done.' })).toEqual([]);
    expect(validateJson(schema, { calls: [], output: null })).toEqual([]);
    expect(validateJson(schema, { calls: [], output: 3 })).not.toEqual([]);
  });

  it('with zero tools, calls must be empty', () => {
    const schema = buildVesselSchema([]);
    expect(validateJson(schema, { calls: [], output: null })).toEqual([]);
    expect(validateJson(schema, { calls: [{ _tool: 'x' }], output: null })).not.toEqual([]);
  });

  it('round trip: a solution valid against the vessel schema parses back to its calls and output', () => {
    const schema = buildVesselSchema(tools, undefined, { instances: ['a'] });
    const solution = {
      calls: [
        { _reasoningForCall: 'need weather', _tool: 'weather', city: 'Austin', _instance: 'a' },
        {
          _tool: 'lyricist',
          topic: 'rain',
          _output: { lyrics: 'drip drop' },
          _outputPath: 'draft',
          _imports: ['state'],
        },
        { _tool: 'composer', style: 'jazz' },
      ],
      output: null,
    };
    expect(validateJson(schema, solution)).toEqual([]);
    expect(parseVessel(structuredClone(solution), tools)).toEqual(solution);
  });

  it('the vessel schema rejects hidden meta-fields and unknown keys in calls', () => {
    const schema = buildVesselSchema(tools);
    expect(
      validateJson(schema, {
        calls: [{ _tool: 'weather', city: 'x', _activity: 'evil' }],
        output: null,
      }),
    ).not.toEqual([]);
    expect(
      validateJson(schema, {
        calls: [{ _tool: 'composer', _module: '../../etc/passwd' }],
        output: null,
      }),
    ).not.toEqual([]);
  });

  it('a missing output becomes null', () => {
    expect(parseVessel({ calls: [] }, tools)).toEqual({ calls: [], output: null });
  });

  it('rejects unknown tool names with the list of known tools and the JSON path', () => {
    let caught: unknown;
    try {
      parseVessel(
        { calls: [{ _tool: 'weather', city: 'x' }, { _tool: 'wether' }], output: null },
        tools,
      );
    } catch (error) {
      caught = error;
    }
    expect(UnknownToolError.isInstance(caught)).toBe(true);
    const error = caught as UnknownToolError;
    expect(error.toolName).toBe('wether');
    expect(error.knownTools).toEqual(['weather', 'lyricist', 'composer']);
    expect(error.message).toContain(
      'Unknown tool "wether" at /calls/1. Known tools: weather, lyricist, composer.',
    );
    expect(error.fault).toBe('model');
  });

  it('rejects malformed solutions with InvalidVesselError naming the JSON path', () => {
    const cases: Array<[unknown, string]> = [
      [null, ''],
      [[], ''],
      [{ output: null }, '/calls'],
      [{ calls: {}, output: null }, '/calls'],
      [{ calls: ['weather'], output: null }, '/calls/0'],
      [{ calls: [{ _tool: 'weather' }, { city: 'x' }], output: null }, '/calls/1/_tool'],
    ];
    for (const [solution, jsonPath] of cases) {
      let caught: unknown;
      try {
        parseVessel(solution, tools);
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(InvalidVesselError);
      expect((caught as InvalidVesselError).jsonPath).toBe(jsonPath);
      expect((caught as InvalidVesselError).message).toContain(
        jsonPath === '' ? '(root)' : jsonPath,
      );
    }
  });
});
