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
