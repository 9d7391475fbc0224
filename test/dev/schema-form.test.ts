import { validateJson, type JSONSchema } from 'ideact';
import {
  buildUiSchema,
  defaultFormData,
  issuesToErrorSchema,
  planForm,
  prepareFormSchema,
  resolveLocalRef,
  runtimeStyleMessage,
} from '../../playground/src/schema-form';

/**
 * The playground's JSON Schema → form mapping (issue 20) for every JSON-Schema feature the protocol's
 * Ideas use: enum, const, anyOf, nested objects, arrays, $ref/$defs, defaults, descriptions, required.
 */

/** An input schema like an Idea's, using every feature at once. */
const orderSchema: JSONSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://example.test/order.json',
  type: 'object',
  description: 'An order to place.',
  properties: {
    kind: { const: 'order' },
    size: { type: 'string', enum: ['small', 'medium', 'large'], default: 'medium' },
    shipping: {
      anyOf: [
        { const: 'standard', title: 'Standard' },
        { const: 'express', title: 'Express' },
      ],
    },
    address: { $ref: '#/$defs/Address', description: 'Where to deliver.' },
    items: { type: 'array', items: { $ref: '#/$defs/Item' }, minItems: 1 },
    tags: {
      type: 'array',
      items: { type: 'string', enum: ['gift', 'fragile'] },
      uniqueItems: true,
    },
    payment: {
      anyOf: [
        { type: 'object', properties: { card: { type: 'string' } }, required: ['card'] },
        { type: 'object', properties: { iban: { type: 'string' }, bank: { enum: ['a', 'b'] } } },
      ],
    },
    note: { type: 'string', maxLength: 2000, description: 'Anything the courier should know.' },
  },
  required: ['size', 'address', 'items'],
  $defs: {
    Address: {
      $id: 'address',
      type: 'object',
      description: 'A postal address.',
      properties: {
        city: { type: 'string', default: 'Paris' },
        country: { type: 'string', enum: ['FR', 'DE'] },
        geo: { type: 'object', properties: { lat: { type: 'number', default: 48.85 } } },
      },
      required: ['city'],
    },
    Item: {
      type: 'object',
      properties: {
        sku: { type: 'string' },
        quantity: { type: 'integer', minimum: 1, default: 1 },
      },
      required: ['sku'],
    },
  },
};

describe('prepareFormSchema', () => {
  it('drops $id and $schema in schema positions (as validateJson does) and keeps $defs, descriptions and required', () => {
    const prepared = prepareFormSchema(orderSchema);
    expect(prepared.$schema).toBeUndefined();
    expect(prepared.$id).toBeUndefined();
    const defs = prepared.$defs as Record<string, Record<string, unknown>>;
    expect(defs.Address.$id).toBeUndefined();
    expect(defs.Address.description).toBe('A postal address.');
    expect(prepared.required).toEqual(['size', 'address', 'items']);
    expect(prepared.description).toBe('An order to place.');
  });

  it('keeps `$id` when it is data (a const or enum value), not a schema keyword', () => {
    const prepared = prepareFormSchema({
      type: 'object',
      properties: { $id: { const: { $id: 'kept' } } },
    });
    expect(prepared.properties).toEqual({ $id: { const: { $id: 'kept' } } });
  });

  it('accepts and rejects exactly the params the runtime accepts and rejects', () => {
    const prepared = prepareFormSchema(orderSchema);
    const samples: unknown[] = [
      { size: 'small', address: { city: 'Lyon' }, items: [{ sku: 'a' }] },
      { size: 'huge', address: { city: 'Lyon' }, items: [{ sku: 'a' }] },
      { size: 'small', address: {}, items: [] },
      {
        kind: 'other',
        size: 'small',
        address: { city: 'Lyon' },
        items: [{ sku: 'a', quantity: 0 }],
      },
      { size: 'small', shipping: 'drone', address: { city: 'Lyon' }, items: [{ sku: 'a' }] },
    ];
    for (const sample of samples) {
      expect(validateJson(prepared, sample)).toEqual(validateJson(orderSchema, sample));
    }
    expect(validateJson(prepared, samples[0])).toEqual([]);
    expect(validateJson(prepared, samples[1]).map((issue) => issue.path)).toEqual(['/size']);
  });

  it('turns a missing or non-object schema into the empty schema', () => {
    expect(prepareFormSchema(undefined)).toEqual({});
    expect(prepareFormSchema([1, 2])).toEqual({});
  });
});

describe('buildUiSchema', () => {
  const plan = planForm(orderSchema);
  const ui = plan.uiSchema as Record<string, Record<string, unknown>>;

  it('renders an enum as a select', () => {
    expect(ui.size['ui:widget']).toBe('select');
  });

  it('renders a const as a read-only field', () => {
    expect(ui.kind['ui:readonly']).toBe(true);
  });

  it('renders an anyOf of consts as one select', () => {
    expect(ui.shipping).toEqual({ 'ui:widget': 'select' });
  });

  it('gives each anyOf option of objects its own uiSchema', () => {
    expect(ui.payment.anyOf).toEqual([{}, { bank: { 'ui:widget': 'select' } }]);
  });

  it('follows $ref into $defs for nested objects, at any depth', () => {
    expect(ui.address).toEqual({ country: { 'ui:widget': 'select' } });
  });

  it('maps array items (through $ref) and unique enum arrays as checkboxes', () => {
    expect(ui.items).toEqual({ items: {} });
    expect(ui.tags).toEqual({ 'ui:widget': 'checkboxes' });
    const nested = buildUiSchema(
      { type: 'array', items: { type: 'object', properties: { unit: { enum: ['kg', 'g'] } } } },
      {},
    );
    expect(nested).toEqual({ items: { unit: { 'ui:widget': 'select' } } });
  });

  it('renders a long string as a textarea', () => {
    expect(ui.note['ui:widget']).toBe('textarea');
    expect(buildUiSchema({ type: 'string', maxLength: 20 }, {})).toEqual({});
  });

  it('does not loop on a recursive $ref', () => {
    const tree = {
      $defs: { Node: { type: 'object', properties: { child: { $ref: '#/$defs/Node' } } } },
      $ref: '#/$defs/Node',
    };
    expect(() => buildUiSchema(tree, tree)).not.toThrow();
  });
});

describe('defaultFormData', () => {
  it('fills defaults and consts, nested objects through $ref included', () => {
    expect(planForm(orderSchema).formData).toEqual({
      kind: 'order',
      size: 'medium',
      address: { city: 'Paris', geo: { lat: 48.85 } },
    });
  });

  it('prefers the referring schema’s default over the target’s', () => {
    const root = { $defs: { Size: { enum: ['s', 'm'], default: 's' } } };
    expect(defaultFormData({ $ref: '#/$defs/Size', default: 'm' }, root)).toBe('m');
    expect(defaultFormData({ $ref: '#/$defs/Size' }, root)).toBe('s');
  });

  it('leaves out what has no default', () => {
    expect(
      defaultFormData({ type: 'object', properties: { a: { type: 'string' } } }, {}),
    ).toBeUndefined();
  });
});

describe('resolveLocalRef', () => {
  it('resolves #/$defs and #/definitions pointers and keeps the referring description', () => {
    const root = {
      $defs: { A: { type: 'string', description: 'target' } },
      definitions: { 'B/C': { type: 'integer' } },
    };
    expect(resolveLocalRef({ $ref: '#/$defs/A', description: 'mine' }, root)).toEqual({
      type: 'string',
      description: 'mine',
    });
    expect(resolveLocalRef({ $ref: '#/definitions/B~1C' }, root)).toEqual({ type: 'integer' });
    expect(resolveLocalRef({ $ref: '#/$defs/Missing' }, root)).toEqual({ $ref: '#/$defs/Missing' });
  });
});

describe('issuesToErrorSchema', () => {
  it('places the server’s INVALID_PARAMS issues under their fields, root issues at the top', () => {
    expect(
      issuesToErrorSchema([
        { path: '/address/city', message: 'must be string' },
        { path: '/items/0/sku', message: 'must be string' },
        { path: '/address/city', message: 'must not be empty' },
        { path: '', message: "must have required property 'size'" },
        { path: '/a~1b', message: 'bad' },
      ]),
    ).toEqual({
      __errors: ["must have required property 'size'"],
      address: { city: { __errors: ['must be string', 'must not be empty'] } },
      items: { 0: { sku: { __errors: ['must be string'] } } },
      'a/b': { __errors: ['bad'] },
    });
  });
});

describe('runtimeStyleMessage', () => {
  it('writes the allowed values, the const and the extra property like validateJson', () => {
    const schema = {
      type: 'object',
      properties: { size: { enum: ['s', 'm'] }, kind: { const: 'x' } },
      additionalProperties: false,
    };
    const runtime = validateJson(schema, { size: 'l', kind: 'y', extra: 1 });
    const form = [
      runtimeStyleMessage({
        name: 'enum',
        message: 'must be equal to one of the allowed values',
        params: { allowedValues: ['s', 'm'] },
      }),
      runtimeStyleMessage({
        name: 'const',
        message: 'must be equal to constant',
        params: { allowedValue: 'x' },
      }),
      runtimeStyleMessage({
        name: 'additionalProperties',
        message: 'must NOT have additional properties',
        params: { additionalProperty: 'extra' },
      }),
    ];
    expect(form.sort()).toEqual(runtime.map((issue) => issue.message).sort());
    expect(runtimeStyleMessage({ name: 'type', message: 'must be string' })).toBe('must be string');
  });
});
