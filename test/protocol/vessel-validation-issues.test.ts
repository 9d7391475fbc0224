import {
  REFERENCE_PARAM_SCHEMA,
  UnknownToolError,
  buildVesselSchema,
  formatIssues,
  parseVessel,
  validateJson,
  type JSONSchema,
  type ToolSchema,
} from 'ideact';

const getWeather: ToolSchema = {
  type: 'object',
  description: 'The weather of a city.',
  properties: {
    _tool: { const: 'getWeather' },
    city: { type: 'string' },
    color: { type: 'string', enum: ['red', 'blue'] },
    days: { type: 'integer', minimum: 1 },
    stop: { $ref: '#/$defs/Stop' },
  },
  required: ['_tool', 'city'],
  $defs: {
    Stop: {
      type: 'object',
      properties: { name: { type: 'string' }, kind: { enum: ['bus', 'tram'] } },
      required: ['name'],
    },
  },
};
const getTime: ToolSchema = {
  type: 'object',
  properties: { _tool: { const: 'getTime' }, zone: { type: 'string' }, hours: { type: 'number' } },
  required: ['_tool', 'zone'],
};
const vessel = buildVesselSchema([getWeather, getTime]);

function issuesOf(calls: unknown[]): string[] {
  return formatIssues(validateJson(vessel, { calls, output: null })).split('\n');
}

describe('R-VAR-1 + issue 14 item 5: the reference alternative of a param admits references only', () => {
  it('a non-reference string where an enum or a number belongs is one issue naming the path and the allowed values; a †reference is valid', () => {
    const call = (vessel.properties!.calls!.items as JSONSchema).anyOf![0]!;
    expect(call.properties!.color).toEqual({
      anyOf: [{ type: 'string', enum: ['red', 'blue'] }, REFERENCE_PARAM_SCHEMA],
    });
    expect(call.properties!.days).toEqual({
      anyOf: [{ type: 'integer', minimum: 1 }, REFERENCE_PARAM_SCHEMA],
    });
    expect(REFERENCE_PARAM_SCHEMA).toMatchObject({ type: 'string', pattern: '^†' });
    // a param that already accepts any string gets no alternative
    expect(call.properties!.city).toEqual({ type: 'string' });
    expect(issuesOf([{ _tool: 'getWeather', city: 'Oslo', color: 'purple' }])).toEqual([
      '/calls/0/color: must be equal to one of the allowed values: "red", "blue"',
    ]);
    expect(issuesOf([{ _tool: 'getWeather', city: 'Oslo', days: 'three' }])).toEqual([
      '/calls/0/days: must be integer',
    ]);
    expect(issuesOf([{ _tool: 'getTime', zone: 'UTC', hours: 'state.hours' }])).toEqual([
      '/calls/0/hours: must be number',
    ]);
    const valid = {
      calls: [
        { _tool: 'getWeather', city: 'Oslo', color: '†state.color', days: '†input.days || †x' },
        { _tool: 'getTime', zone: 'UTC', hours: 2.5 },
      ],
      output: null,
    };
    expect(validateJson(vessel, valid)).toEqual([]);
    expect(parseVessel(valid, [getWeather, getTime]).calls).toHaveLength(2);
  });
});

describe('R-REQ-3 + issue 14 item 6: issues of a Call speak of the tool it names', () => {
  it('a wrong param lists the called tool’s issues only (not those of every other tool)', () => {
    const lines = issuesOf([
      { _tool: 'getTime', zone: 'UTC' },
      { _tool: 'getWeather', city: 'Oslo', color: 'purple', days: 0, stop: { kind: 'ship' } },
    ]);
    expect(lines).toEqual([
      '/calls/1/color: must be equal to one of the allowed values: "red", "blue"',
      '/calls/1/days: must be >= 1',
      "/calls/1/stop: must have required property 'name'",
      '/calls/1/stop/kind: must be equal to one of the allowed values: "bus", "tram"',
    ]);
    expect(lines.join('\n')).not.toContain('getTime');
    expect(lines.join('\n')).not.toContain('must match a schema in anyOf');
  });

  it('an unknown tool is one issue naming what the model wrote and the known tools', () => {
    const lines = issuesOf([
      { _tool: 'getTime', zone: 'UTC' },
      { _tool: 'getTime', zone: 'CET' },
      { _tool: 'getWether', city: 'Oslo' },
    ]);
    expect(lines).toEqual([
      '/calls/2/_tool: unknown tool "getWether"; known tools: getWeather, getTime',
    ]);
    expect(lines.join('\n')).not.toContain('must be equal to constant');
  });

  it('with one Tool too (a one-branch anyOf): an unknown or missing tool is one line, a wrong param its own issue (issue 27 item 5)', () => {
    const single = buildVesselSchema([getTime]);
    const lines = (calls: unknown[]): string[] =>
      formatIssues(validateJson(single, { calls, output: null })).split('\n');
    expect(lines([{ _tool: 'zorblax', zone: 5, extra: true }])).toEqual([
      '/calls/0/_tool: unknown tool "zorblax"; known tools: getTime',
    ]);
    expect(lines([{ zone: 'UTC' }])).toEqual([
      "/calls/0: must have required property '_tool' (known tools: getTime)",
    ]);
    expect(lines([{ _tool: 'getTime', zone: 5 }])).toEqual(['/calls/0/zone: must be string']);
  });

  it('a Call without _tool is one issue listing the known tools', () => {
    expect(issuesOf([{ city: 'Oslo' }])).toEqual([
      "/calls/0: must have required property '_tool' (known tools: getWeather, getTime)",
    ]);
  });

  it('parseVessel names the unknown tool, its JSON path and the known tools (UnknownToolError)', () => {
    let caught: unknown;
    try {
      parseVessel({ calls: [{ _tool: 'getTime' }, { _tool: 'getWether' }], output: null }, [
        getWeather,
        getTime,
      ]);
    } catch (error) {
      caught = error;
    }
    expect(UnknownToolError.isInstance(caught)).toBe(true);
    const error = caught as UnknownToolError;
    expect(error.code).toBe('UNKNOWN_TOOL');
    expect(error.toolName).toBe('getWether');
    expect(error.knownTools).toEqual(['getWeather', 'getTime']);
    expect(error.message).toContain('"getWether" at /calls/1');
    expect(error.message).toContain('Known tools: getWeather, getTime');
    expect(error.message).not.toContain('constant');
  });

  it('a wrong output reports its own schema’s issues, not also "must be null"', () => {
    const typed = buildVesselSchema([getTime], {
      type: 'object',
      properties: { summary: { type: 'string' } },
      required: ['summary'],
    });
    expect(formatIssues(validateJson(typed, { calls: [], output: { summary: 3 } }))).toBe(
      '/output/summary: must be string',
    );
    expect(validateJson(typed, { calls: [], output: null })).toEqual([]);
  });

  it('an anyOf without a discriminator still reports every alternative', () => {
    const schema: JSONSchema = { anyOf: [{ type: 'string' }, { type: 'integer' }] };
    expect(formatIssues(validateJson(schema, true)).split('\n')).toEqual([
      '(root): must be string',
      '(root): must be integer',
      '(root): must match a schema in anyOf',
    ]);
  });
});
