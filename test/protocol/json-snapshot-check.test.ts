import fc from 'fast-check';
import { validateJson, type JSONSchema } from 'ideact';
import { snapshotCheck } from '../../src/protocol/json-snapshot-check';

/**
 * The generated comparison behind the validator cache's in-place-edit check (issue 28): true exactly
 * when a value still equals the snapshot (key order aside), and no generated check where one could be
 * wrong (non-JSON values, `__proto__` keys, very large values).
 */

/** JSON text with sorted keys: the oracle (key order does not make two JSON values differ). */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    return `{${Object.keys(record)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical(record[key])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

const json = fc.jsonValue({ maxDepth: 4 });

describe('snapshotCheck (issue 28)', () => {
  it('says true for any copy of the value and, for any other value, whether it is equal', () => {
    fc.assert(
      fc.property(json, json, (value, other) => {
        const check = snapshotCheck(value);
        if (check === undefined) return; // a value it declines (e.g. a "__proto__" key) is walked instead
        expect(check(structuredClone(value))).toBe(true);
        expect(check(other)).toBe(canonical(value) === canonical(other));
      }),
    );
  });

  it('notices every kind of in-place edit of a schema', () => {
    const schema = {
      type: 'object',
      properties: {
        name: { type: 'string', description: 'say "hi"\\n\u2028' },
        tags: { type: 'array', items: { enum: ['a', 'b'] } },
        age: { type: 'integer', maximum: 120 },
      },
      required: ['name'],
      additionalProperties: false,
    };
    const check = snapshotCheck(structuredClone(schema))!;
    expect(check(schema)).toBe(true);
    const edits: Array<(copy: typeof schema) => void> = [
      (copy) => (copy.properties.age.maximum = 5),
      (copy) => ((copy.properties as Record<string, unknown>).extra = { type: 'string' }),
      (copy) => delete (copy as Partial<typeof schema>).required,
      (copy) => copy.required.push('age'),
      (copy) => (copy.properties.tags.items.enum[1] = 'c'),
      (copy) => ((copy.properties as Record<string, unknown>).tags = 'array'),
      (copy) => ((copy.properties as Record<string, unknown>).age = null),
      (copy) => ((copy as Record<string, unknown>).additionalProperties = {}),
      (copy) => (copy.properties.name.description = 'say "hi"'),
      (copy) => ((copy.properties.tags as Record<string, unknown>).items = [{ enum: ['a', 'b'] }]),
    ];
    for (const edit of edits) {
      const copy = structuredClone(schema);
      edit(copy);
      expect(check(copy)).toBe(false);
    }
  });

  it('declines what a generated comparison could get wrong: non-JSON values, __proto__ keys, huge values', () => {
    expect(snapshotCheck({ a: undefined })).toBeUndefined();
    expect(snapshotCheck({ a: Number.NaN })).toBeUndefined();
    expect(snapshotCheck({ a: () => 1 })).toBeUndefined();
    expect(
      snapshotCheck(JSON.parse('{"properties":{"__proto__":{"type":"string"}}}')),
    ).toBeUndefined();
    expect(
      snapshotCheck({ list: Array.from({ length: 5_000 }, (_unused, index) => index) }),
    ).toBeUndefined();
  });

  it('validateJson follows a schema edited in place after it was used often enough to get a generated check', () => {
    const schema: JSONSchema = {
      type: 'object',
      properties: { n: { type: 'integer', maximum: 100 } },
      required: ['n'],
    };
    for (let use = 0; use < 10; use++) expect(validateJson(schema, { n: 50 })).toEqual([]);
    (schema.properties!.n as JSONSchema).maximum = 10;
    expect(validateJson(schema, { n: 50 }).map((issue) => issue.path)).toEqual(['/n']);
    for (let use = 0; use < 10; use++) expect(validateJson(schema, { n: 5 })).toEqual([]);
    schema.required = ['n', 'm'];
    expect(validateJson(schema, { n: 5 })).toHaveLength(1);
    delete schema.required;
    expect(validateJson(schema, {})).toEqual([]);
  });
});
