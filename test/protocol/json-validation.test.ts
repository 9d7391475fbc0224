import { InvalidSchemaError, formatIssues, validateJson } from 'ideact';

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
