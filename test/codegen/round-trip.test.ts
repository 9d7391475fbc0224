import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { findIdeaInput, parseIdea, toolSchema, type JSONSchema, type ToolClass } from 'ideact';
import { Lyricist } from './fixtures/lyricist';
import { Mixer } from './fixtures/mixer';
import { NoInput } from './fixtures/no-input';
import { SoundDesigner } from './fixtures/sound-designer';

/**
 * Round trip (issue 7, R-TOOL-1): `toolSchema(GeneratedClass)` gives back the Idea's input schema for
 * the supported subset — properties, types, required, enums, bounds, descriptions, nested objects.
 */
const FIXTURES = path.join(__dirname, 'fixtures');

/** The keywords the generated class-validator decorators express. */
const COMPARED = [
  'type',
  'description',
  'enum',
  'minimum',
  'maximum',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'uniqueItems',
  'pattern',
  'format',
] as const;

async function ideaInputSchema(name: string): Promise<JSONSchema> {
  const file = path.join(FIXTURES, `${name}.idea.json`);
  const idea = parseIdea(JSON.parse(await fs.readFile(file, 'utf8')) as unknown, file);
  return findIdeaInput(idea)?.schema ?? { type: 'object', properties: {} };
}

/** Local `$ref`s followed and only the compared keywords kept, so both sides are comparable. */
function project(
  schema: JSONSchema,
  root: JSONSchema,
  refs: string[] = [],
): Record<string, unknown> {
  let current = schema;
  while (typeof current.$ref === 'string') {
    if (refs.includes(current.$ref)) return { recursive: current.$ref };
    refs = [...refs, current.$ref];
    const segments = current.$ref.slice(2).split('/');
    current = segments.reduce<JSONSchema>(
      (node, segment) => (node as Record<string, JSONSchema>)[segment]!,
      root,
    );
  }
  const projected: Record<string, unknown> = {};
  for (const keyword of COMPARED) {
    if (current[keyword] !== undefined) projected[keyword] = current[keyword];
  }
  if (current.const !== undefined) projected.enum = [current.const];
  if (current.properties !== undefined) {
    projected.properties = Object.fromEntries(
      Object.entries(current.properties)
        .filter(([key]) => !key.startsWith('_'))
        .map(([key, value]) => [key, project(value, root, refs)]),
    );
    projected.required = [...(current.required ?? [])].filter((key) => !key.startsWith('_')).sort();
  }
  if (current.items !== undefined && !Array.isArray(current.items)) {
    projected.items = project(current.items, root, refs);
  }
  return projected;
}

/** The params part (properties and required) of a schema: the top-level description is the Tool's. */
function paramsPart(schema: JSONSchema): Record<string, unknown> {
  const { properties, required } = project(schema, schema);
  return { properties, required };
}

function paramsOf(type: ToolClass): Record<string, unknown> {
  return paramsPart(toolSchema(type));
}

describe('R-TOOL-1 round trip: toolSchema(Generated) ≈ the Idea input schema', () => {
  it.each([
    ['lyricist', Lyricist],
    ['sound-designer', SoundDesigner],
  ] as const)(
    '%s: properties, types, required, enums, bounds and nested objects',
    async (name, type) => {
      const input = await ideaInputSchema(name);
      expect(paramsOf(type)).toEqual(paramsPart(input));
    },
  );

  it('no-input: a Tool without params', () => {
    expect(paramsOf(NoInput)).toEqual({ properties: {}, required: [] });
  });

  it('mixer: the supported params round-trip; unsupported ones are present and accept any value', async () => {
    const input = await ideaInputSchema('mixer');
    const expected = paramsPart(input).properties as Record<string, Record<string, unknown>>;
    const actual = paramsOf(Mixer).properties as Record<string, Record<string, unknown>>;
    expect(Object.keys(actual)).toEqual(Object.keys(expected));
    expect(actual.stems).toEqual(expected.stems);
    expect(actual.contact).toEqual(expected.contact);
    expect(actual.target).toEqual({ description: expected.target!.description });
    expect(actual.notes).toEqual({ type: 'string' });
    expect(actual.busGains).toEqual({ type: 'object' });
    expect((paramsOf(Mixer) as { required: string[] }).required).toEqual(['stems', 'target']);
  });

  it('carries the meta-fields: name, description, upfront module, output schema', async () => {
    const schema = toolSchema(SoundDesigner);
    const idea = JSON.parse(
      await fs.readFile(path.join(FIXTURES, 'sound-designer.idea.json'), 'utf8'),
    ) as {
      description: string;
      schema: JSONSchema;
    };
    expect(schema.description).toBe(idea.description);
    expect(schema.properties._tool).toEqual({ const: 'sound-designer' });
    expect(schema.properties._module).toEqual({ const: 'sound-designer.idea.json' });
    expect(schema.properties._resolution).toEqual({ const: 'upfront' });
    expect(schema.properties._output).toEqual(idea.schema);
    expect(SoundDesigner.toolName).toBe('sound-designer');
  });
});
