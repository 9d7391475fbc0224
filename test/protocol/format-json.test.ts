import fc from 'fast-check';
import { formatJson } from 'ideact';
import { referenceFormatJson } from './support/format-json-reference';

describe('formatJson (R-DATA-3)', () => {
  it('always expands the root, even when it would fit on one line', () => {
    expect(formatJson({ a: 1 })).toBe('{\n  "a": 1\n}');
    expect(formatJson([1, 2])).toBe('[\n  1,\n  2\n]');
  });

  it('prints primitives and empty containers as JSON', () => {
    expect(formatJson('¶ text')).toBe('"¶ text"');
    expect(formatJson(42)).toBe('42');
    expect(formatJson(null)).toBe('null');
    expect(formatJson(true)).toBe('true');
    expect(formatJson({})).toBe('{}');
    expect(formatJson([])).toBe('[]');
    expect(formatJson({ a: {}, b: [] })).toBe('{\n  "a": {},\n  "b": []\n}');
  });

  it('puts a nested all-primitive object or array on one line with spaces inside braces', () => {
    expect(formatJson({ name: { type: 'string' }, tags: [1, 'two', null, false] })).toBe(
      ['{', '  "name": { "type": "string" },', '  "tags": [1, "two", null, false]', '}'].join('\n'),
    );
  });

  it('expands a nested container that holds containers', () => {
    expect(formatJson({ outer: { inner: { a: 1 } } })).toBe(
      ['{', '  "outer": {', '    "inner": { "a": 1 }', '  }', '}'].join('\n'),
    );
    expect(formatJson({ rows: [[1], [2]] })).toBe(
      ['{', '  "rows": [', '    [1],', '    [2]', '  ]', '}'].join('\n'),
    );
  });

  it('expands a nested all-primitive container whose line would pass 80 columns', () => {
    const fits = 'x'.repeat(80 - '  "k": { "v": "" }'.length);
    expect(formatJson({ k: { v: fits } })).toBe(`{\n  "k": { "v": "${fits}" }\n}`);
    const tooLong = `${fits}y`;
    expect(formatJson({ k: { v: tooLong } })).toBe(`{\n  "k": {\n    "v": "${tooLong}"\n  }\n}`);
  });

  it('counts the trailing comma in the 80-column limit', () => {
    const fits = 'x'.repeat(80 - '  "k": [""],'.length);
    expect(formatJson({ k: [fits], z: 1 }).split('\n')[1]).toBe(`  "k": ["${fits}"],`);
    expect(formatJson({ k: [`${fits}y`], z: 1 }).split('\n')[1]).toBe('  "k": [');
  });

  it('normalises like JSON.stringify: undefined keys dropped, toJSON used, non-finite → null', () => {
    expect(formatJson({ a: undefined, b: new Date(0), c: Number.NaN, d: [undefined] })).toBe(
      ['{', '  "b": "1970-01-01T00:00:00.000Z",', '  "c": null,', '  "d": [null]', '}'].join('\n'),
    );
    expect(formatJson(undefined)).toBe('null');
  });

  it('is JSON: parsing the output gives the value back (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = formatJson(value);
        expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(value)));
        expect(formatJson(value)).toBe(text);
      }),
    );
  });
});

describe('formatJson with hostile keys', () => {
  it('prints a "__proto__" key as data and leaves prototypes alone', () => {
    const value = JSON.parse('{"__proto__": {"polluted": true}, "a": 1}') as unknown;
    expect(formatJson(value)).toBe('{\n  "__proto__": { "polluted": true },\n  "a": 1\n}');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('formatJson is byte-identical to the straightforward printer (issue 28: one pass, no copy)', () => {
  /** JSON-ish values with what JSON.stringify normalises: undefined, BigInts, toJSON, NaN, long text. */
  const value = fc.letrec((tie) => ({
    leaf: fc.oneof(
      fc.string({ maxLength: 30 }),
      fc.string({ minLength: 60, maxLength: 90 }),
      fc.integer(),
      fc.double(),
      fc.constantFrom(null, true, false, undefined, Number.NaN, Infinity, -0),
      fc.bigInt(),
      fc.date({ noInvalidDate: true }),
    ),
    node: fc.oneof(
      { depthSize: 'small' },
      tie('leaf'),
      fc.array(tie('node'), { maxLength: 6 }),
      fc.dictionary(fc.oneof(fc.string({ maxLength: 12 }), fc.constant('__proto__')), tie('node'), {
        maxKeys: 6,
      }),
      tie('leaf').map((inner) => ({ toJSON: () => inner })),
    ),
  })).node;

  it('prints every value exactly as the reference does', () => {
    fc.assert(
      fc.property(value, (input) => {
        expect(formatJson(input)).toBe(referenceFormatJson(input));
      }),
      { numRuns: 2000 },
    );
  });
});
