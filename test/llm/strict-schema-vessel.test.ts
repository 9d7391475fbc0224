import fc from 'fast-check';
import {
  buildVesselSchema,
  fromStrictSolution,
  sampleSolution,
  toStrictSchema,
  validateJson,
  type JSONSchema,
  type ToolSchema,
} from 'ideact';
import { expectStrict } from './expect-strict';

describe('strict conversion of real schemas and generated ones (R-REQ-3)', () => {
  it('a Vessel schema (tools with params, latent _output, optional params) converts to strict and round-trips', () => {
    const weather: ToolSchema = {
      type: 'object',
      description: 'Current weather',
      properties: {
        _tool: { const: 'weather' },
        city: { type: 'string', minLength: 1 },
        unit: { enum: ['C', 'F'] },
        _output: {
          type: 'object',
          properties: { temp: { type: 'number' }, sky: { type: 'string' } },
          required: ['temp'],
        },
      },
      required: ['_tool', 'city'],
    };
    const search: ToolSchema = {
      type: 'object',
      properties: {
        _tool: { const: 'search' },
        query: { type: 'string' },
        _activity: { const: 'search' },
      },
      required: ['_tool', 'query'],
    };
    const vessel = buildVesselSchema([weather, search]);
    const strict = toStrictSchema(vessel);
    expectStrict(strict);
    // a strict-shaped reply: every optional field present as null
    const reply = sampleSolution(strict) as { calls: unknown[]; output: unknown };
    expect(validateJson(strict, reply)).toEqual([]);
    const strictReply = {
      calls: [
        {
          _reasoningForCall: null,
          _tool: 'weather',
          city: 'Paris',
          unit: null,
          _output: { temp: 20, sky: null },
        },
        { _reasoningForCall: 'look it up', _tool: 'search', query: 'louvre hours' },
      ],
      output: null,
    };
    expect(validateJson(strict, strictReply)).toEqual([]);
    const restored = fromStrictSolution(strictReply, vessel);
    expect(restored).toEqual({
      calls: [
        { _tool: 'weather', city: 'Paris', _output: { temp: 20 } },
        { _reasoningForCall: 'look it up', _tool: 'search', query: 'louvre hours' },
      ],
      output: null,
    });
    expect(validateJson(vessel, restored)).toEqual([]);
  });

  it('nested $defs (e.g. inside a call schema) are hoisted to the root $defs', () => {
    const schema: JSONSchema = {
      type: 'object',
      properties: {
        item: {
          type: 'object',
          properties: { tag: { $ref: '#/$defs/tag' } },
          required: ['tag'],
          $defs: { tag: { type: 'string', maxLength: 5 } },
        },
      },
      required: ['item'],
    };
    const strict = toStrictSchema(schema);
    expect(strict.$defs).toEqual({
      tag: { type: 'string', description: 'Constraints: maxLength: 5' },
    });
    expect((strict.properties?.item as JSONSchema).$defs).toBeUndefined();
    expect(validateJson(strict, { item: { tag: 'a' } })).toEqual([]);
  });

  it('property: a strict-valid reply converts back to a value valid for the original schema', () => {
    // Constraint-free schemas (constraints move into descriptions and are enforced by validation later).
    const schemas: fc.Arbitrary<JSONSchema> = fc.letrec<{ schema: JSONSchema }>((tie) => ({
      schema: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        fc.constantFrom<JSONSchema>(
          { type: 'string' },
          { type: 'integer' },
          { type: 'number' },
          { type: 'boolean' },
          { type: 'null' },
          { type: ['string', 'null'] },
          { const: 'fixed' },
          { enum: ['a', 'b'] },
          {},
        ),
        fc
          .record({
            properties: fc.dictionary(fc.constantFrom('a', 'b', 'c', 'd'), tie('schema'), {
              minKeys: 1,
              maxKeys: 4,
            }),
            requiredCount: fc.nat(4),
          })
          .map(({ properties, requiredCount }) => ({
            type: 'object',
            properties,
            required: Object.keys(properties).slice(0, requiredCount),
          })),
        tie('schema').map((items) => ({ type: 'array', items })),
        fc.array(tie('schema'), { minLength: 1, maxLength: 3 }).map((anyOf) => ({ anyOf })),
      ),
    })).schema;
    fc.assert(
      fc.property(schemas, (schema) => {
        const strict = toStrictSchema(schema);
        expectStrict(strict);
        const reply = sampleSolution(strict);
        expect(validateJson(strict, reply)).toEqual([]);
        expect(validateJson(schema, fromStrictSolution(reply, schema))).toEqual([]);
      }),
      { numRuns: 150 },
    );
  });
});
