import {
  fromStrictSolution,
  sampleSolution,
  toStrictSchema,
  validateJson,
  type JSONSchema,
} from 'ideact';
import { expectStrict } from './expect-strict';

describe('toStrictSchema / fromStrictSolution (R-REQ-3 strict structured output)', () => {
  const person: JSONSchema = {
    type: 'object',
    properties: {
      name: { type: 'string', minLength: 1, description: 'Full name' },
      age: { type: 'integer', minimum: 0, maximum: 150 },
      address: {
        type: 'object',
        properties: { city: { type: 'string' }, zip: { type: 'string', pattern: '^[0-9]{5}$' } },
        required: ['city'],
      },
    },
    required: ['name', 'address'],
  };

  it('nested objects: additionalProperties false, all required, optional fields nullable, constraints in descriptions, string patterns kept', () => {
    const strict = toStrictSchema(person);
    expectStrict(strict);
    expect(strict).toEqual({
      type: 'object',
      additionalProperties: false,
      required: ['name', 'age', 'address'],
      properties: {
        name: { type: 'string', description: 'Full name\nConstraints: minLength: 1' },
        age: { type: ['integer', 'null'], description: 'Constraints: minimum: 0; maximum: 150' },
        address: {
          type: 'object',
          additionalProperties: false,
          required: ['city', 'zip'],
          properties: {
            city: { type: 'string' },
            zip: { type: ['string', 'null'], pattern: '^[0-9]{5}$' },
          },
        },
      },
    });
  });

  it('round trip: nulls of optional fields are dropped, the result validates against the original', () => {
    const reply = { name: 'Ada', age: null, address: { city: 'London', zip: null } };
    expect(validateJson(toStrictSchema(person), reply)).toEqual([]);
    const restored = fromStrictSolution(reply, person);
    expect(restored).toEqual({ name: 'Ada', address: { city: 'London' } });
    expect(validateJson(person, restored)).toEqual([]);
  });

  it('keeps a null the original schema itself allows', () => {
    const schema: JSONSchema = {
      type: 'object',
      properties: { note: { type: ['string', 'null'] } },
    };
    expect(toStrictSchema(schema).properties?.note).toEqual({ type: ['string', 'null'] });
    expect(fromStrictSolution({ note: null }, schema)).toEqual({ note: null });
  });

  it('arrays of objects: items converted, nulls dropped inside each item', () => {
    const schema: JSONSchema = {
      type: 'object',
      properties: {
        items: {
          type: 'array',
          minItems: 1,
          items: {
            type: 'object',
            properties: { sku: { type: 'string' }, qty: { type: 'integer', default: 1 } },
            required: ['sku'],
          },
        },
      },
      required: ['items'],
    };
    const strict = toStrictSchema(schema);
    expectStrict(strict);
    const items = strict.properties?.items as JSONSchema;
    expect(items.description).toBe('Constraints: minItems: 1');
    expect(items.items).toEqual({
      type: 'object',
      additionalProperties: false,
      required: ['sku', 'qty'],
      properties: {
        sku: { type: 'string' },
        qty: { type: ['integer', 'null'], description: 'Constraints: default: 1' },
      },
    });
    const restored = fromStrictSolution(
      {
        items: [
          { sku: 'a', qty: null },
          { sku: 'b', qty: 2 },
        ],
      },
      schema,
    );
    expect(restored).toEqual({ items: [{ sku: 'a' }, { sku: 'b', qty: 2 }] });
  });

  it('anyOf and oneOf: branches converted recursively (oneOf → anyOf); an optional anyOf gains a null branch', () => {
    const schema: JSONSchema = {
      type: 'object',
      properties: {
        contact: {
          oneOf: [
            {
              type: 'object',
              properties: { email: { type: 'string', format: 'email' } },
              required: ['email'],
            },
            {
              type: 'object',
              properties: { phone: { type: 'string' }, ext: { type: 'string' } },
              required: ['phone'],
            },
          ],
        },
      },
    };
    const strict = toStrictSchema(schema);
    expectStrict(strict);
    const contact = strict.properties?.contact as JSONSchema;
    expect(contact.anyOf).toHaveLength(3);
    expect(contact.anyOf?.[0]).toEqual({
      type: 'object',
      additionalProperties: false,
      required: ['email'],
      properties: { email: { type: 'string', format: 'email' } },
    });
    expect(contact.anyOf?.[2]).toEqual({ type: 'null' });
    // the phone branch's optional `ext` null is dropped; a null contact is dropped entirely
    expect(fromStrictSolution({ contact: { phone: '1', ext: null } }, schema)).toEqual({
      contact: { phone: '1' },
    });
    expect(fromStrictSolution({ contact: null }, schema)).toEqual({});
  });

  it('$ref/$defs kept, definitions renamed to $defs, optional $ref wrapped in anyOf with null, recursion survives', () => {
    const schema: JSONSchema = {
      type: 'object',
      properties: {
        root: { $ref: '#/definitions/node' },
        spare: { $ref: '#/definitions/node' },
      },
      required: ['root'],
      definitions: {
        node: {
          type: 'object',
          properties: {
            label: { type: 'string' },
            children: { type: 'array', items: { $ref: '#/definitions/node' } },
          },
          required: ['label'],
        },
      },
    };
    const strict = toStrictSchema(schema);
    expectStrict(strict);
    expect(strict.properties?.root).toEqual({ $ref: '#/$defs/node' });
    expect(strict.properties?.spare).toEqual({
      anyOf: [{ $ref: '#/$defs/node' }, { type: 'null' }],
    });
    expect(strict.$defs?.node.properties?.children).toEqual({
      type: ['array', 'null'],
      items: { $ref: '#/$defs/node' },
    });
    const reply = {
      root: { label: 'a', children: [{ label: 'b', children: null }] },
      spare: null,
    };
    expect(validateJson(strict, reply)).toEqual([]);
    const restored = fromStrictSolution(reply, schema);
    expect(restored).toEqual({ root: { label: 'a', children: [{ label: 'b' }] } });
    expect(validateJson(schema, restored)).toEqual([]);
  });

  it('a $ref with a description becomes anyOf [$ref] (strict mode allows no keywords beside $ref)', () => {
    const schema: JSONSchema = {
      type: 'object',
      properties: { home: { $ref: '#/$defs/place', description: 'Where you live' } },
      required: ['home'],
      $defs: {
        place: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
      },
    };
    expect(toStrictSchema(schema).properties?.home).toEqual({
      anyOf: [{ $ref: '#/$defs/place' }],
      description: 'Where you live',
    });
    expect(fromStrictSolution({ home: { city: 'Oslo' } }, schema)).toEqual({
      home: { city: 'Oslo' },
    });
  });

  it('const becomes an enum of one; tool-like schemas keep their _tool discriminator', () => {
    const schema: JSONSchema = {
      type: 'object',
      properties: { _tool: { const: 'weather' }, city: { type: 'string' } },
      required: ['_tool', 'city'],
    };
    expect(toStrictSchema(schema).properties?._tool).toEqual({ enum: ['weather'], type: 'string' });
  });

  it('a non-object root is wrapped as { value } and unwrapped on the way back', () => {
    const schema: JSONSchema = { type: 'array', items: { type: 'string' }, maxItems: 3 };
    const strict = toStrictSchema(schema);
    expect(strict).toEqual({
      type: 'object',
      properties: {
        value: {
          type: 'array',
          items: { type: 'string' },
          description: 'Constraints: maxItems: 3',
        },
      },
      required: ['value'],
      additionalProperties: false,
    });
    expect(fromStrictSolution({ value: ['a', 'b'] }, schema)).toEqual(['a', 'b']);
  });

  it('free-form values (no properties, {}) travel as JSON text and are parsed back', () => {
    const schema: JSONSchema = {
      type: 'object',
      properties: { payload: { type: 'object', description: 'Anything' }, extra: {} },
      required: ['payload', 'extra'],
    };
    const strict = toStrictSchema(schema);
    expectStrict(strict);
    expect((strict.properties?.payload as JSONSchema).type).toBe('string');
    expect((strict.properties?.payload as JSONSchema).description).toContain('Anything');
    const restored = fromStrictSolution({ payload: '{"a":[1,2]}', extra: '"text"' }, schema);
    expect(restored).toEqual({ payload: { a: [1, 2] }, extra: 'text' });
    expect(validateJson(schema, restored)).toEqual([]);
  });

  it('allOf branches are merged into one strict object', () => {
    const schema: JSONSchema = {
      allOf: [
        { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
        { properties: { tags: { type: 'array', items: { type: 'string' } } } },
      ],
    };
    const strict = toStrictSchema(schema);
    expectStrict(strict);
    expect(strict.required).toEqual(['id', 'tags']);
    expect(fromStrictSolution({ id: 'x', tags: null }, schema)).toEqual({ id: 'x' });
  });

  it('a $ref that is not a decodable pointer resolves to nothing instead of throwing (one JSON Pointer reader)', () => {
    const schema: JSONSchema = {
      type: 'object',
      properties: { mood: { allOf: [{ $ref: '#/$defs/%E0%A4%A' }] } },
      required: ['mood'],
      $defs: {},
    };
    expect(() => toStrictSchema(schema)).not.toThrow();
    expect(fromStrictSolution({ mood: 'calm' }, schema)).toEqual({ mood: 'calm' });
    expect(sampleSolution(schema)).toEqual({ mood: null });
  });

  it('does not mutate its input', () => {
    const copy = JSON.parse(JSON.stringify(person)) as JSONSchema;
    toStrictSchema(person);
    expect(person).toEqual(copy);
  });
});
