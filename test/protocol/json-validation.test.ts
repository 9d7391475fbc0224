import { InvalidSchemaError, compileValidator, formatIssues, validateJson } from 'ideact';
import type { JSONSchema } from 'ideact';

describe('validateJson', () => {
  const schema = {
    type: 'object',
    properties: { city: { type: 'string' }, unit: { enum: ['C', 'F'] } },
    required: ['city'],
    additionalProperties: false,
  };

  it('returns no issues for a valid value', () => {
    expect(validateJson(schema, { city: 'Austin', unit: 'C' })).toEqual([]);
  });

  it('names the JSON pointer and the allowed values of each violation', () => {
    const issues = validateJson(schema, { unit: 'K', extra: 1 });
    expect(formatIssues(issues)).toBe(
      [
        "(root): must have required property 'city'",
        '(root): must NOT have additional properties: "extra"',
        '/unit: must be equal to one of the allowed values: "C", "F"',
      ].join('\n'),
    );
  });

  it('throws a typed error for a schema that is not valid JSON Schema', () => {
    expect(() => validateJson({ type: 'no-such-type' }, 1)).toThrow(InvalidSchemaError);
  });
});

describe('compileValidator', () => {
  const schema = (): JSONSchema => ({
    type: 'object',
    properties: {
      calls: {
        type: 'array',
        items: {
          anyOf: [
            {
              type: 'object',
              properties: { _tool: { const: 'getWeather' }, city: { type: 'string' } },
              required: ['_tool', 'city'],
            },
            {
              type: 'object',
              properties: { _tool: { const: 'getTime' }, zone: { type: 'string' } },
              required: ['_tool', 'zone'],
            },
          ],
        },
      },
    },
    required: ['calls'],
  });

  it('reports the same issues as validateJson, anyOf narrowed to the branch the value names', () => {
    const validate = compileValidator(schema());
    const values = [
      { calls: [{ _tool: 'getWeather', city: 'Oslo' }] },
      { calls: [{ _tool: 'getTime' }] },
      { calls: [{ _tool: 'getWether', city: 'Oslo' }] },
      {},
    ];
    for (const value of values) expect(validate(value)).toEqual(validateJson(schema(), value));
    expect(formatIssues(validate({ calls: [{ _tool: 'getTime' }] }))).toBe(
      "/calls/0: must have required property 'zone'",
    );
  });

  it('checks against the schema as it was compiled, even when the object is changed later', () => {
    const live = schema();
    const validate = compileValidator(live);
    live.required = [];
    expect(validateJson(live, {})).toEqual([]);
    expect(formatIssues(validate({}))).toBe("(root): must have required property 'calls'");
  });

  it('throws InvalidSchemaError at once for a schema that is not valid JSON Schema', () => {
    expect(() => compileValidator({ type: 'no-such-type' })).toThrow(InvalidSchemaError);
  });
});
