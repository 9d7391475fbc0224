import fc from 'fast-check';
import { OfflineProvider, sampleSolution, validateJson, type JSONSchema } from 'ideact';

/** Generates satisfiable JSON Schemas: primitives with bounds and formats, enums, objects, arrays, anyOf. */
const schemaArbitrary: fc.Arbitrary<JSONSchema> = fc.letrec<{ schema: JSONSchema }>((tie) => ({
  schema: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc
      .record({ minLength: fc.nat(8), extra: fc.nat(8) }, { requiredKeys: ['minLength', 'extra'] })
      .map(({ minLength, extra }) => ({ type: 'string', minLength, maxLength: minLength + extra })),
    fc.constantFrom<JSONSchema>(
      { type: 'string', format: 'email' },
      { type: 'string', format: 'date-time' },
      { type: 'string', format: 'uri' },
      { type: 'string', format: 'uuid' },
      { type: 'string', pattern: '^[a-z]+$' },
      { type: 'boolean' },
      { type: 'null' },
      { type: ['string', 'null'] },
      { const: 'fixed' },
      { enum: ['red', 'green', 42] },
      { type: 'string', default: 'chosen' },
      { type: 'integer', examples: [7] },
      {},
    ),
    fc
      .record({
        minimum: fc.integer({ min: -100, max: 100 }),
        span: fc.nat(50),
        integer: fc.boolean(),
      })
      .map(({ minimum, span, integer }) => ({
        type: integer ? 'integer' : 'number',
        minimum,
        maximum: minimum + span,
      })),
    fc
      .record({
        exclusiveMinimum: fc.integer({ min: -10, max: 10 }),
        multipleOf: fc.constantFrom(1, 2, 5),
      })
      .map(({ exclusiveMinimum, multipleOf }) => ({
        type: 'integer',
        exclusiveMinimum,
        multipleOf,
      })),
    fc
      .record({
        properties: fc.dictionary(fc.string({ minLength: 1, maxLength: 6 }), tie('schema'), {
          maxKeys: 4,
        }),
        requireAll: fc.boolean(),
        closed: fc.boolean(),
      })
      .map(({ properties, requireAll, closed }) => ({
        type: 'object',
        properties,
        required: requireAll ? Object.keys(properties) : Object.keys(properties).slice(0, 1),
        ...(closed ? { additionalProperties: false } : {}),
      })),
    fc
      .record({ items: tie('schema'), minItems: fc.nat(3) })
      .map(({ items, minItems }) => ({ type: 'array', items, minItems, maxItems: minItems + 2 })),
    fc.array(tie('schema'), { minLength: 1, maxLength: 3 }).map((anyOf) => ({ anyOf })),
  ),
})).schema;

describe('OfflineProvider (DESIGN §5: deterministic, schema-valid, not a model)', () => {
  it('property: its output validates against generated schemas, and is deterministic', async () => {
    const provider = new OfflineProvider();
    await fc.assert(
      fc.asyncProperty(schemaArbitrary, async (schema) => {
        const { options } = await provider.generate({ messages: [], schema });
        expect(validateJson(schema, options[0])).toEqual([]);
        expect(sampleSolution(schema)).toEqual(options[0]);
      }),
      { numRuns: 300 },
    );
  });

  it('uses const, enum, default and examples before inventing values; follows $ref and required properties', () => {
    const schema: JSONSchema = {
      type: 'object',
      properties: {
        tool: { const: 'search' },
        color: { enum: ['blue', 'red'] },
        limit: { type: 'integer', default: 10 },
        city: { type: 'string', examples: ['Paris'] },
        owner: { $ref: '#/$defs/person' },
        optional: { type: 'string' },
      },
      required: ['tool', 'color', 'limit', 'city', 'owner'],
      $defs: {
        person: {
          type: 'object',
          properties: { email: { type: 'string', format: 'email' } },
          required: ['email'],
        },
      },
    };
    expect(sampleSolution(schema)).toEqual({
      tool: 'search',
      color: 'blue',
      limit: 10,
      city: 'Paris',
      owner: { email: 'offline@example.com' },
    });
  });

  it('checks a default against the root definitions too when its subschema has $defs of its own', () => {
    const schema: JSONSchema = {
      type: 'object',
      properties: {
        song: {
          type: 'object',
          $defs: { Title: { type: 'string' } },
          properties: { title: { $ref: '#/$defs/Title' }, mood: { $ref: '#/$defs/Mood' } },
          default: { mood: 'wild' },
        },
      },
      required: ['song'],
      $defs: { Mood: { enum: ['calm', 'wild'] } },
    };
    expect(sampleSolution(schema)).toEqual({ song: { mood: 'wild' } });
  });

  it('returns n options, zero usage and says plainly that it is not a model', async () => {
    const provider = new OfflineProvider();
    const response = await provider.generate({
      messages: [],
      schema: { type: 'object', properties: { a: { type: 'number' } }, required: ['a'] },
      n: 3,
    });
    expect(response.options).toEqual([{ a: 0 }, { a: 0 }, { a: 0 }]);
    expect(response.usage).toEqual({ inputTokens: 0, outputTokens: 0, cachedTokens: 0 });
    expect(provider.name).toBe('offline (not a model)');
    expect(OfflineProvider.notice).toMatch(/not a language model/);
    expect(provider.notice).toBe(OfflineProvider.notice);
  });
});
