import { findIdeaProblems, findIdeaSchemaProblems, InvalidIdeaError, parseIdea } from 'ideact';

/**
 * Issue 27 item 10: one structural check of an Idea that finds every problem (`findIdeaProblems`,
 * what `ideact validate` lists) and whose first problem is what `parseIdea` throws; item 8: one
 * schema check (`findIdeaSchemaProblems`) for validate and codegen.
 */
const BROKEN = {
  name: 7,
  context: [
    { type: 'system', text: 'ok' },
    { type: 'input', kind: 3, description: false },
    { type: 'result', call: { _tool: 1 }, error: 'boom' },
  ],
  schema: {
    type: 'object',
    properties: {
      a: { $ref: '#/definitions/missing' },
      b: { $ref: '#/definitions/gone' },
      calls: {
        type: 'array',
        items: {
          anyOf: [
            {
              type: 'object',
              properties: {
                _tool: { const: 'x' },
                _module: { const: 'one.json' },
                _delegate: { const: 'two.json' },
              },
            },
          ],
        },
      },
    },
  },
};

describe('findIdeaProblems (issue 27 item 10)', () => {
  it('lists every structural problem in document order, each an InvalidIdeaError with its JSON path', () => {
    const problems = findIdeaProblems(BROKEN, 'broken.json');
    expect(problems.every((problem) => InvalidIdeaError.isInstance(problem))).toBe(true);
    expect(problems.map((problem) => problem.jsonPath)).toEqual([
      '/name',
      '/context/1/input',
      '/context/1/kind',
      '/context/1/description',
      '/context/2/call/_tool',
      '/context/2/error',
      '/schema/properties/a/$ref',
      '/schema/properties/b/$ref',
      '/schema/properties/calls/items/anyOf/0/properties/_delegate',
    ]);
    expect(problems.every((problem) => problem.source === 'broken.json')).toBe(true);
  });

  it('parseIdea throws the first of them, and accepts an Idea that has none', () => {
    const [first] = findIdeaProblems(BROKEN, 'broken.json');
    expect(() => parseIdea(BROKEN, 'broken.json')).toThrow(first!.message);
    const valid = { context: [{ type: 'system', text: 'hi' }], schema: { type: 'string' } };
    expect(findIdeaProblems(valid, 'valid.json')).toEqual([]);
    expect(parseIdea(valid, 'valid.json')).toBe(valid);
  });

  it('a value that is not an object, or nested too deep, is one problem (nothing below is read)', () => {
    expect(findIdeaProblems([], 'list.json').map((problem) => problem.message)).toEqual([
      'Invalid Idea in list.json at (root): expected an object with "context" and "schema", got an array.',
    ]);
    let deep: unknown = 'leaf';
    for (let level = 0; level < 1100; level++) deep = { deep };
    const problems = findIdeaProblems({ context: [], schema: {}, solution: deep }, 'deep.json');
    expect(problems).toHaveLength(1);
    expect(problems[0]!.message).toContain('MAX_JSON_DEPTH');
  });
});

describe('findIdeaSchemaProblems (issue 27 item 8)', () => {
  const idea = {
    context: [{ type: 'input' as const, input: {}, schema: { id: 'params', type: 'object' } }],
    schema: {
      type: 'object',
      properties: { mood: { $ref: 'https://example.com/mood.json' } },
    },
  };

  it('names the file and JSON path of each schema that is not valid JSON Schema (a draft-04 `id`)', () => {
    const problems = findIdeaSchemaProblems(idea, 'song.json');
    expect(problems.map((problem) => [problem.code, problem.source, problem.jsonPath])).toEqual([
      ['INVALID_SCHEMA', 'song.json', '/schema'],
      ['INVALID_SCHEMA', 'song.json', '/context/0/schema'],
    ]);
    expect(problems[0]!.message).toMatch(
      /^song\.json at \/schema: Invalid JSON Schema: can't resolve reference/,
    );
    expect(problems[1]!.message).toBe(
      'song.json at /context/0/schema: Invalid JSON Schema: NOT SUPPORTED: keyword "id", use "$id" for schema ID. Fix the schema so that it is valid JSON Schema (draft-07 or 2020-12 keywords).',
    );
  });

  it("externalReferences: 'skip' leaves $refs to other documents to the caller (codegen resolves them)", () => {
    const problems = findIdeaSchemaProblems(idea, 'song.json', { externalReferences: 'skip' });
    expect(problems.map((problem) => problem.jsonPath)).toEqual(['/context/0/schema']);
  });
});
