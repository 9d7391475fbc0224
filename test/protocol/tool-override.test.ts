import {
  buildVesselSchema,
  latestToolDefinitions,
  vesselTools,
  type JSONSchema,
  type ToolSchema,
} from 'ideact';

function tool(name: string, params: Record<string, JSONSchema>, description?: string): ToolSchema {
  return {
    type: 'object',
    ...(description === undefined ? {} : { description }),
    properties: { _tool: { const: name }, ...params },
    required: ['_tool'],
  };
}

const oldLookup = tool('lookup', { q: { type: 'string' } }, 'the old lookup');
const newLookup = tool('lookup', { query: { type: 'string' } }, 'the new lookup');
const other = tool('other', {});

/** The `_tool` names offered by a Vessel schema, in order. */
function offered(vessel: JSONSchema): Array<{ name: unknown; description?: string }> {
  const items = vessel.properties!.calls!.items as JSONSchema;
  return (items.anyOf ?? []).map((call) => ({
    name: (call.properties!._tool as JSONSchema).const,
    description: call.description,
  }));
}

describe('R-TOOL-5 a tool defined twice in one context: the later definition wins', () => {
  it('latestToolDefinitions keeps the later definition at its own position and drops the earlier', () => {
    expect(latestToolDefinitions([oldLookup, other, newLookup])).toEqual([other, newLookup]);
    expect(latestToolDefinitions([oldLookup, other])).toEqual([oldLookup, other]);
    expect(latestToolDefinitions(['a', 'b', 'a', 'a'], (name) => name)).toEqual(['b', 'a']);
  });

  it('the Vessel schema offers the name once, as its later definition (before: two anyOf branches)', () => {
    const vessel = buildVesselSchema([oldLookup, other, newLookup]);
    expect(offered(vessel)).toEqual([
      { name: 'other', description: undefined },
      { name: 'lookup', description: 'the new lookup' },
    ]);
  });

  it('a Vessel Idea listing a tool twice offers its later definition', () => {
    const tools = vesselTools({
      type: 'object',
      properties: {
        calls: { type: 'array', items: { anyOf: [oldLookup, other, newLookup] } },
        output: { type: 'null' },
      },
    });
    expect(tools?.map((entry) => entry.description)).toEqual([undefined, 'the new lookup']);
  });
});
