import { forEachSubschema, mapSubschemas, walkSchema, type JSONSchema } from 'ideact';

const schema: JSONSchema = {
  type: 'object',
  properties: {
    city: { type: 'string' },
    'a/b': { type: 'array', items: { type: 'number' } },
  },
  $defs: { Mood: { enum: ['calm', 'wild'] } },
  anyOf: [{ required: ['city'] }, true as unknown as JSONSchema],
  if: { properties: { city: { const: 'Oslo' } } },
  then: { required: ['a/b'] },
  not: false,
  const: { properties: { ignored: { type: 'string' } } },
  default: { items: { type: 'string' } },
  _output: { type: 'object', properties: { hidden: { type: 'string' } } },
};

describe('schema walk (one traversal for every converter)', () => {
  it('visits every subschema keyword with its JSON Pointer, parents first, and never data keywords', () => {
    const pointers: string[] = [];
    walkSchema(schema, (_node, pointer) => {
      pointers.push(pointer);
    });
    expect(pointers).toEqual([
      '',
      '/properties/city',
      '/properties/a~1b',
      '/properties/a~1b/items',
      '/$defs/Mood',
      '/anyOf/0',
      '/anyOf/1',
      '/not',
      '/if',
      '/if/properties/city',
      '/then',
    ]);
  });

  it('skips the children of a node whose visitor returns false', () => {
    const pointers: string[] = [];
    walkSchema(schema, (_node, pointer) => {
      pointers.push(pointer);
      return pointer !== '/properties/a~1b';
    });
    expect(pointers).not.toContain('/properties/a~1b/items');
    expect(pointers).toContain('/properties/a~1b');
  });

  it('maps direct subschemas into a copy and leaves the input untouched', () => {
    const before = JSON.stringify(schema);
    const mapped = mapSubschemas(schema, (child) =>
      typeof child === 'boolean' ? child : { ...child, description: 'seen' },
    );
    expect(JSON.stringify(schema)).toBe(before);
    expect(mapped.properties?.city).toEqual({ type: 'string', description: 'seen' });
    expect(mapped.anyOf).toEqual([{ required: ['city'], description: 'seen' }, true]);
    expect(mapped.const).toBe(schema.const);
    expect(mapped._output).toBe(schema._output);
    expect((mapped.properties?.['a/b'].items as JSONSchema).description).toBeUndefined();
  });

  it('handles draft-07 tuple items and walks 10,000 levels without overflowing the stack', () => {
    const seen: string[] = [];
    forEachSubschema({ items: [{ type: 'string' }, { type: 'number' }] }, (_child, location) =>
      seen.push(`${location.keyword}[${location.index}]`),
    );
    expect(seen).toEqual(['items[0]', 'items[1]']);

    let deep: JSONSchema = { type: 'string' };
    for (let level = 0; level < 10_000; level++) deep = { type: 'array', items: deep };
    let count = 0;
    walkSchema(deep, () => {
      count++;
    });
    expect(count).toBe(10_001);
  });
});

describe('schema walk keywords and copies', () => {
  it('visits draft-07 dependencies (schemas only) and contentSchema', () => {
    const pointers: string[] = [];
    walkSchema(
      {
        dependencies: { a: ['b'], c: { required: ['d'] } },
        contentSchema: { type: 'object' },
      },
      (_node, pointer) => {
        pointers.push(pointer);
      },
    );
    expect(pointers).toEqual(['', '/dependencies/c', '/contentSchema']);
  });

  it('keeps entries of a map or list that are not schemas, and a property named __proto__ as data', () => {
    const properties = JSON.parse('{"__proto__": {"type": "string"}, "ok": {"type": "number"}}');
    const mapped = mapSubschemas(
      { dependencies: { a: ['b'], c: { required: ['d'] } }, properties },
      (child) => (typeof child === 'boolean' ? child : { ...child, seen: true }),
    );
    expect(mapped.dependencies).toEqual({ a: ['b'], c: { required: ['d'], seen: true } });
    expect(Object.keys(mapped.properties!)).toEqual(['__proto__', 'ok']);
    expect(Object.getPrototypeOf(mapped.properties)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(mapped.properties, '__proto__')?.value).toEqual({
      type: 'string',
      seen: true,
    });
  });
});
