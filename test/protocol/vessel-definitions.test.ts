import { buildVesselSchema, parseVessel, validateJson, type ToolSchema } from 'ideact';

const point = { type: 'object', properties: { x: { type: 'number' } }, required: ['x'] };
const drawTool: ToolSchema = {
  type: 'object',
  $defs: { Point: point },
  properties: { _tool: { const: 'draw' }, at: { $ref: '#/$defs/Point' } },
  required: ['_tool', 'at'],
};
const moveTool: ToolSchema = {
  type: 'object',
  definitions: {
    Point: { type: 'object', properties: { y: { type: 'number' } }, required: ['y'] },
  },
  properties: { _tool: { const: 'move' }, to: { $ref: '#/definitions/Point' } },
  required: ['_tool', 'to'],
};

describe('buildVesselSchema with $defs (seed 002)', () => {
  it('hoists tool definitions to the root so $ref resolves, renaming a clashing name per tool', () => {
    const schema = buildVesselSchema([drawTool, moveTool], undefined, { references: false });
    expect(schema.$defs).toEqual({
      Point: point,
      move_Point: { type: 'object', properties: { y: { type: 'number' } }, required: ['y'] },
    });
    const solution = {
      calls: [
        { _tool: 'draw', at: { x: 1 } },
        { _tool: 'move', to: { y: 2 } },
      ],
      output: null,
    };
    expect(validateJson(schema, solution)).toEqual([]);
    expect(
      validateJson(schema, { calls: [{ _tool: 'move', to: { x: 2 } }], output: null }),
    ).not.toEqual([]);
    expect(parseVessel(solution, [drawTool, moveTool]).calls).toHaveLength(2);
  });
});

describe('buildVesselSchema renames $refs in schema positions only (one schema walk)', () => {
  it('renames a hoisted definition in every subschema keyword but keeps a $ref-shaped const value as data', () => {
    const stamp = { $ref: '#/definitions/Point' };
    const markTool: ToolSchema = {
      type: 'object',
      definitions: { Point: { type: 'object', properties: { z: { type: 'number' } } } },
      properties: {
        _tool: { const: 'mark' },
        where: { type: 'array', items: [{ $ref: '#/definitions/Point' }] },
        label: {
          type: 'object',
          dependencies: { z: ['w'], w: { not: { $ref: '#/definitions/Point' } } },
        },
        stamp: { const: stamp, default: stamp },
      },
      required: ['_tool'],
    };
    const schema = buildVesselSchema([drawTool, markTool], undefined, { references: false });
    const call = (schema.properties!.calls.items as { anyOf: ToolSchema[] }).anyOf[1]!;
    expect(schema.$defs!.mark_Point).toEqual(markTool.definitions!.Point);
    expect(call.properties.where.items).toEqual([{ $ref: '#/$defs/mark_Point' }]);
    expect(call.properties.label.dependencies).toEqual({
      z: ['w'],
      w: { not: { $ref: '#/$defs/mark_Point' } },
    });
    expect(call.properties.stamp).toEqual({ const: stamp, default: stamp });
  });
});
