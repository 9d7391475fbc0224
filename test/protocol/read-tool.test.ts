import { InvalidSchemaError, readTool, resolveActivity, type ToolSchema } from 'ideact';

const weather: ToolSchema = {
  type: 'object',
  description: 'Current weather for a city.',
  properties: {
    _tool: { const: 'weather' },
    city: { type: 'string' },
    unit: { enum: ['C', 'F'] },
    _output: { type: 'object', properties: { t: { type: 'number' } } },
    _imports: { const: ['input', 'state'] },
    _outputPath: { const: 'state.weather' },
  },
  required: ['_tool', 'city'],
  additionalProperties: false,
};

describe('readTool (DESIGN §2 meta-fields)', () => {
  it('reads name, description, params (no meta-fields), output and fixed meta', () => {
    expect(readTool(weather)).toEqual({
      name: 'weather',
      description: 'Current weather for a city.',
      params: {
        type: 'object',
        properties: { city: { type: 'string' }, unit: { enum: ['C', 'F'] } },
        required: ['city'],
        additionalProperties: false,
      },
      output: { type: 'object', properties: { t: { type: 'number' } } },
      resolution: 'execution',
      imports: { mode: 'static', kinds: ['input', 'state'], field: '_imports' },
      outputPath: { mode: 'fixed', path: 'state.weather' },
      outputMethod: { mode: 'none' },
    });
  });

  it('reads activity, module, upfront resolution and LLM-chosen imports / output paths', () => {
    const info = readTool({
      type: 'object',
      properties: {
        _tool: { const: 'compose' },
        _activity: { const: 'composeSong' },
        _module: { const: 'composer.json' },
        _resolution: { const: 'upfront' },
        _imports: { type: 'array', items: { enum: ['input', 'lyrics'] } },
        _outputPath: { enum: ['song', 'draft'] },
      },
    });
    expect(info).toMatchObject({
      name: 'compose',
      activity: 'composeSong',
      module: 'composer.json',
      moduleField: '_module',
      resolution: 'upfront',
      imports: { mode: 'dynamic', kinds: ['input', 'lyrics'], field: '_imports' },
      outputPath: { mode: 'choice', paths: ['song', 'draft'] },
      params: { type: 'object', properties: {} },
    });
    expect(
      readTool({
        type: 'object',
        properties: { _tool: { const: 'x' }, _outputPath: { type: 'string' } },
      }).outputPath,
    ).toEqual({ mode: 'choice' });
  });

  it('defaults: no imports, no output path or method, execution-time resolution, no activity', () => {
    const info = readTool({ type: 'object', properties: { _tool: { const: 'bare' } } });
    expect(info).toEqual({
      name: 'bare',
      params: { type: 'object', properties: {} },
      resolution: 'execution',
      imports: { mode: 'none' },
      outputPath: { mode: 'none' },
      outputMethod: { mode: 'none' },
    });
  });

  it('keeps an explicit empty _activity ("" = latent)', () => {
    expect(
      readTool({ type: 'object', properties: { _tool: { const: 'x' }, _activity: { const: '' } } })
        .activity,
    ).toBe('');
  });

  it('throws InvalidSchemaError naming the fix when _tool has no const name', () => {
    const broken = { type: 'object', properties: { _tool: { type: 'string' } } } as ToolSchema;
    expect(() => readTool(broken)).toThrow(InvalidSchemaError);
    expect(() => readTool(broken)).toThrow(/"_tool": \{ "const": "<name>" \}/);
  });
});

describe('resolveActivity (R-TOOL-2)', () => {
  const tool = (activity?: string): ToolSchema => ({
    type: 'object',
    properties: {
      _tool: { const: 'weather' },
      ...(activity === undefined ? {} : { _activity: { const: activity } }),
    },
  });

  it('an explicit _activity wins over a registered Activity of the tool name', () => {
    expect(resolveActivity(tool('fetchWeather'), new Set(['weather', 'fetchWeather']))).toBe(
      'fetchWeather',
    );
    expect(resolveActivity(tool('fetchWeather'), new Set())).toBe('fetchWeather');
  });

  it('else an Activity registered under the tool name', () => {
    expect(resolveActivity(tool(), new Set(['weather']))).toBe('weather');
  });

  it("an explicit _activity '' keeps the tool latent even when an Activity has its name", () => {
    expect(resolveActivity(tool(''), new Set(['weather']))).toBe('');
  });

  it("else latent ('')", () => {
    expect(resolveActivity(tool(), new Set(['other']))).toBe('');
    expect(resolveActivity(tool(''), new Set())).toBe('');
  });
});
