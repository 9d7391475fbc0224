import type { JSONSchema } from 'ideact';

/**
 * Checks the strict-mode invariants OpenAI enforces, on every node: objects closed and fully required,
 * no unsupported keywords; `pattern` only on string nodes, without lookaround or backreferences.
 */
export function expectStrict(node: unknown, path = '#'): void {
  if (Array.isArray(node)) {
    node.forEach((item, index) => expectStrict(item, `${path}/${index}`));
    return;
  }
  if (typeof node !== 'object' || node === null) return;
  const schema = node as JSONSchema;
  if (typeof schema.$ref === 'string') {
    expect({ path, keys: Object.keys(schema) }).toEqual({ path, keys: ['$ref'] });
  }
  if (schema.properties !== undefined) {
    expect({ path, additionalProperties: schema.additionalProperties }).toEqual({
      path,
      additionalProperties: false,
    });
    expect({ path, required: schema.required }).toEqual({
      path,
      required: Object.keys(schema.properties),
    });
  }
  for (const keyword of [
    'minLength',
    'maxLength',
    'default',
    'examples',
    'oneOf',
    'allOf',
    'definitions',
    'const',
    'title',
  ]) {
    expect({ path, keyword, present: keyword in schema }).toEqual({
      path,
      keyword,
      present: false,
    });
  }
  if ('pattern' in schema) {
    const types = Array.isArray(schema.type) ? schema.type : [schema.type];
    expect({ path, patternOn: types.includes('string') ? 'string' : schema.type }).toEqual({
      path,
      patternOn: 'string',
    });
    expect({ path, pattern: schema.pattern }).not.toEqual({
      path,
      pattern: expect.stringMatching(/\(\?<?[=!]|\\[1-9]|\\k</),
    });
  }
  for (const [key, value] of Object.entries(schema)) expectStrict(value, `${path}/${key}`);
}
