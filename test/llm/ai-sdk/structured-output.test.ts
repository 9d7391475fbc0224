import { toGeminiSchema, toStrictSchema, type JSONSchema } from 'ideact';
import type { AiSdkLanguageModel } from '../../../src/llm/ai-sdk/ai-sdk-model';
import { familyOf, schemaPlan, type AiSdkFamily } from '../../../src/llm/ai-sdk/structured-output';

/**
 * Issue 30 item 2: each provider family gets the schema in the form it accepts, and no keyword is
 * silently dropped — a keyword the form cannot carry is in a description, and the request pipeline
 * validates the reply against the ORIGINAL schema (R-REQ-3). docs/providers.md has the table.
 */
function model(provider: string, extra: Record<string, unknown> = {}): AiSdkLanguageModel {
  return {
    specificationVersion: 'v3',
    provider,
    modelId: 'm',
    doGenerate: () => Promise.reject(new Error('not called')),
    doStream: () => Promise.reject(new Error('not called')),
    ...extra,
  };
}

/** Constraint keywords of the original: each must survive as a keyword or as description text. */
const CONSTRAINTS = [
  'minLength',
  'maxLength',
  'pattern',
  'format',
  'minimum',
  'maximum',
  'multipleOf',
  'minItems',
  'maxItems',
  'uniqueItems',
  'default',
  'examples',
  'title',
  'const',
  'enum',
];

const rich: JSONSchema = {
  type: 'object',
  title: 'Booking',
  properties: {
    code: { type: 'string', pattern: '^[A-Z]{3}$', minLength: 3, maxLength: 3 },
    email: { type: 'string', format: 'email' },
    when: { type: 'string', format: 'date-time' },
    seats: { type: 'integer', minimum: 1, maximum: 9, multipleOf: 1, default: 1 },
    tags: { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: 5, uniqueItems: true },
    kind: { const: 'booking' },
    level: { enum: [1, 2, 3] },
    note: { type: 'string', examples: ['window seat'] },
    extra: { type: 'object' },
    traveller: { $ref: '#/$defs/person' },
  },
  required: ['code', 'email', 'seats'],
  $defs: {
    person: {
      type: 'object',
      properties: { name: { type: 'string', minLength: 1 } },
      required: ['name'],
    },
  },
};

/** True when `keyword: value` is in the sent schema (a `const` as an enum of one is kept too) or in a description. */
function survives(sent: JSONSchema, keyword: string, value: unknown): boolean {
  const nodes = allNodes(sent);
  const same = (left: unknown, right: unknown): boolean =>
    JSON.stringify(left) === JSON.stringify(right);
  if (nodes.some((node) => same(node[keyword], value))) return true;
  if (
    keyword === 'const' &&
    nodes.some(
      (node) => Array.isArray(node.enum) && node.enum.some((item: unknown) => same(item, value)),
    )
  ) {
    return true;
  }
  if (
    keyword === 'enum' &&
    nodes.some(
      (node) =>
        Array.isArray(node.enum) &&
        (value as unknown[]).every((item) =>
          node.enum!.some((other: unknown) => same(item, other)),
        ),
    )
  ) {
    return true;
  }
  const described = nodes
    .map((node) => (typeof node.description === 'string' ? node.description : ''))
    .join('\n');
  const shown = typeof value === 'string' ? value : JSON.stringify(value);
  return (described.includes(keyword) || described.includes('one of')) && described.includes(shown);
}

/** Every object inside a schema (its nodes, and some data: harmless for these checks). */
function allNodes(schema: unknown, found: JSONSchema[] = []): JSONSchema[] {
  if (typeof schema !== 'object' || schema === null) return found;
  if (!Array.isArray(schema)) found.push(schema as JSONSchema);
  for (const value of Object.values(schema)) allNodes(value, found);
  return found;
}

function originalConstraints(
  schema: unknown,
  found: Array<[string, unknown]> = [],
): Array<[string, unknown]> {
  if (typeof schema !== 'object' || schema === null) return found;
  for (const [keyword, value] of Object.entries(schema)) {
    if (CONSTRAINTS.includes(keyword)) found.push([keyword, value]);
    if (typeof value === 'object' && !['enum', 'const', 'default', 'examples'].includes(keyword)) {
      originalConstraints(value, found);
    }
  }
  return found;
}

describe('the family of a model (issue 30 item 2)', () => {
  it.each([
    ['anthropic.messages', 'anthropic'],
    ['vertex.anthropic.messages', 'anthropic'],
    ['google.generative-ai', 'google'],
    ['google.vertex.chat', 'google'],
    ['openai.chat', 'openai'],
    ['openai.responses', 'openai'],
    ['azure.chat', 'openai'],
    ['mistral.chat', 'other'],
  ] as Array<[string, AiSdkFamily]>)('%s → %s', (provider, family) => {
    expect(familyOf(model(provider))).toBe(family);
  });

  it('an @ai-sdk/openai-compatible model (it says whether it has structured outputs) → openai-compatible', () => {
    expect(familyOf(model('ollama.chat', { supportsStructuredOutputs: false }))).toBe(
      'openai-compatible',
    );
  });
});

describe('no keyword silently dropped, per family (issue 30 item 2)', () => {
  const constraints = originalConstraints(rich);

  it.each(['openai', 'anthropic', 'google', 'other'] as AiSdkFamily[])(
    '%s: every constraint of the original is in the sent schema or its descriptions',
    (family) => {
      const plan = schemaPlan(rich, 'booking', family, 'native', model('x.chat'));
      const sent = plan.responseSchema as JSONSchema;
      expect(sent).toBeDefined();
      const lost = constraints.filter(([keyword, value]) => !survives(sent, keyword, value));
      expect(lost).toEqual([]);
    },
  );

  it('prompt mode and openai-compatible without structured outputs: the original schema, whole, in a system message', () => {
    for (const plan of [
      schemaPlan(rich, 'booking', 'google', 'prompt', model('google.generative-ai')),
      schemaPlan(
        rich,
        'booking',
        'openai-compatible',
        'native',
        model('local.chat', { supportsStructuredOutputs: false }),
      ),
    ]) {
      expect(plan.responseSchema).toBeUndefined();
      expect(plan.instruction?.role).toBe('system');
      expect(plan.instruction?.content).toContain(JSON.stringify(rich, null, 2));
    }
  });

  it('other packages: the strict schema in the response format AND in the prompt (a package may drop it)', () => {
    const plan = schemaPlan(rich, 'booking', 'other', 'native', model('mistral.chat'));
    expect(plan.responseSchema).toEqual(toStrictSchema(rich));
    expect(plan.instruction?.content).toContain(JSON.stringify(toStrictSchema(rich), null, 2));
  });

  it('replies come back to the original shape: nullable optionals dropped, free-form JSON text parsed', () => {
    const plan = schemaPlan(rich, 'booking', 'google', 'native', model('google.generative-ai'));
    expect(
      plan.convert({
        code: 'OSL',
        email: 'a@b.c',
        seats: 2,
        when: null,
        extra: '{"x":1}',
        tags: null,
      }),
    ).toEqual({ code: 'OSL', email: 'a@b.c', seats: 2, extra: { x: 1 } });
  });
});

describe('toGeminiSchema (issue 30 item 2)', () => {
  it('inlines $refs, keeps date-time, moves other formats, patterns and non-string enums to descriptions', () => {
    const gemini = toGeminiSchema(toStrictSchema(rich)) as JSONSchema;
    const text = JSON.stringify(gemini);
    expect(text).not.toContain('$ref');
    expect(text).not.toContain('$defs');
    expect(text).not.toContain('additionalProperties');
    expect(text).not.toContain('"pattern"');
    expect(gemini.properties?.when).toMatchObject({ format: 'date-time' });
    expect(JSON.stringify(gemini.properties?.email)).toContain('format: \\"email\\"');
    expect(JSON.stringify(gemini.properties?.level)).toContain('one of: [1,2,3]');
    expect(JSON.stringify(gemini.properties?.level)).not.toContain('"enum"');
    expect(gemini.properties?.kind).toEqual({ enum: ['booking', null], type: ['string', 'null'] });
    expect(JSON.stringify(gemini.properties?.traveller)).toContain('"name"');
  });

  it('a recursive schema cannot be inlined: undefined (the caller sends it in the prompt)', () => {
    const tree: JSONSchema = {
      type: 'object',
      properties: { children: { type: 'array', items: { $ref: '#' } } },
    };
    expect(toGeminiSchema(toStrictSchema(tree))).toBeUndefined();
  });
});
