import { InvalidIdeaError, parseIdea, type JSONSchema } from 'ideact';

/**
 * Issue 14 item 13: a dangling or cyclic local `$ref` in an Idea's schemas is an `InvalidIdeaError`
 * naming the Idea, the JSON path of the `$ref` and the ref itself (validators otherwise fail with
 * "can't resolve reference … from id #" or a stack overflow that names neither).
 */
function ideaWith(schema: JSONSchema): unknown {
  return { context: [], schema };
}

function parseError(value: unknown): InvalidIdeaError {
  try {
    parseIdea(value, 'ideas/broken.json');
  } catch (error) {
    if (InvalidIdeaError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected an InvalidIdeaError');
}

describe('parseIdea: local $refs must resolve and must not loop', () => {
  it.each<[string, JSONSchema, string, string[]]>([
    [
      'a dangling definition',
      { type: 'object', properties: { a: { $ref: '#/$defs/Missing' } } },
      '/schema/properties/a/$ref',
      ['"#/$defs/Missing"', 'points at nothing'],
    ],
    [
      'a pointer into a missing array index',
      { anyOf: [{ type: 'string' }], properties: { b: { $ref: '#/anyOf/3' } } },
      '/schema/properties/b/$ref',
      ['"#/anyOf/3"'],
    ],
    [
      'a $ref to itself',
      { $defs: { A: { $ref: '#/$defs/A' } }, properties: { a: { $ref: '#/$defs/A' } } },
      '/schema/$defs/A/$ref',
      ['"#/$defs/A"', '$ref cycle', '#/$defs/A → #/$defs/A'],
    ],
    [
      'a loop through anyOf that never descends into the value',
      { $defs: { A: { anyOf: [{ type: 'string' }, { $ref: '#/$defs/A' }] } }, $ref: '#/$defs/A' },
      '/schema/$defs/A/anyOf/1/$ref',
      ['"#/$defs/A"', '$ref cycle'],
    ],
    ['the root referring to itself', { $ref: '#' }, '/schema/$ref', ['"#"', '$ref cycle', '# → #']],
  ])('%s', (_name, schema, jsonPath, names) => {
    const error = parseError(ideaWith(schema));
    expect(error.code).toBe('INVALID_IDEA');
    expect(error.jsonPath).toBe(jsonPath);
    expect(error.message).toContain('ideas/broken.json');
    expect(error.message).toContain(jsonPath);
    for (const name of names) expect(error.message).toContain(name);
  });

  it('checks the schemas of context messages too (e.g. the input schema)', () => {
    const error = parseError({
      context: [
        { type: 'system', text: 'x' },
        { type: 'input', input: {}, schema: { properties: { a: { $ref: '#/definitions/A' } } } },
      ],
      schema: { type: 'object' },
    });
    expect(error.jsonPath).toBe('/context/1/schema/properties/a/$ref');
    expect(error.message).toContain('"#/definitions/A"');
  });

  it.each<[string, JSONSchema]>([
    [
      'a recursive tree through properties and items',
      {
        $ref: '#/$defs/Node',
        $defs: {
          Node: {
            type: 'object',
            properties: { children: { type: 'array', items: { $ref: '#/$defs/Node' } } },
          },
        },
      },
    ],
    ['the root recursion through properties', { properties: { next: { $ref: '#' } } }],
    [
      '"#/" as the root, as ajv resolves it (one JSON Pointer reader)',
      { properties: { next: { $ref: '#/' } } },
    ],
    [
      'escaped pointer segments (~1 for "/", ~0 for "~", percent-encoding)',
      {
        $defs: { 'a/b': { type: 'string' }, 'c~d': { type: 'number' }, 'e f': { type: 'null' } },
        properties: {
          x: { $ref: '#/$defs/a~1b' },
          y: { $ref: '#/$defs/c~0d' },
          z: { $ref: '#/$defs/e%20f' },
        },
      },
    ],
    [
      'refs under a nested $id, anchors and other documents are left to their resolver',
      {
        properties: {
          inner: { $id: 'https://example.test/inner', properties: { a: { $ref: '#/$defs/X' } } },
          anchored: { $ref: '#name' },
          other: { $ref: 'other.json#/$defs/Y' },
        },
      },
    ],
  ])('accepts %s', (_name, schema) => {
    expect(parseIdea(ideaWith(schema), 'ideas/ok.json').schema).toEqual(schema);
  });
});
