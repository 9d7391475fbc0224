import {
  buildVesselSchema,
  callSchema,
  chooseOutputMethod,
  InvalidSchemaError,
  OutputMethodNotAllowedError,
  readTool,
  validateJson,
  type Call,
  type JSONSchema,
  type ToolSchema,
} from 'ideact';

/** Issue 17 item 2: a Tool fixes the output method or leaves it to the model (R-OUT-4). */

function tool(
  outputMethod?: JSONSchema,
  outputPath: JSONSchema | null = { type: 'string' },
): ToolSchema {
  const properties: ToolSchema['properties'] = {
    _tool: { const: 'note' },
    text: { type: 'string' },
  };
  if (outputPath !== null) properties._outputPath = outputPath;
  if (outputMethod !== undefined) properties._outputMethod = outputMethod;
  return { type: 'object', properties, required: ['_tool', 'text'] };
}

describe('reading _outputMethod from a Tool (R-OUT-4)', () => {
  it('R-OUT-4 absent → none (set); const → fixed; enum / string → the model chooses; default kept', () => {
    expect(readTool(tool()).outputMethod).toEqual({ mode: 'none' });
    expect(readTool(tool({ const: 'push' })).outputMethod).toEqual({
      mode: 'fixed',
      method: 'push',
    });
    expect(readTool(tool({ enum: ['set', 'push'] })).outputMethod).toEqual({
      mode: 'choice',
      methods: ['set', 'push'],
    });
    expect(readTool(tool({ type: 'string' })).outputMethod).toEqual({
      mode: 'choice',
      methods: ['set', 'merge', 'assign', 'push', 'concat'],
    });
    expect(readTool(tool({ enum: ['push', 'concat'], default: 'concat' })).outputMethod).toEqual({
      mode: 'choice',
      methods: ['push', 'concat'],
      default: 'concat',
    });
  });

  it('R-OUT-4 a name that is not an output method is an InvalidSchemaError naming the tool', () => {
    expect(() => readTool(tool({ const: 'append' }))).toThrow(InvalidSchemaError);
    expect(() => readTool(tool({ enum: ['set', 'append'] }))).toThrow(/Tool "note".*"append"/);
    expect(() => readTool(tool({ enum: ['set'], default: 'push!' }))).toThrow(InvalidSchemaError);
  });

  it('R-OUT-4 the method a Call gets: fixed wins over the Call; a choice must be allowed', () => {
    const fixed = readTool(tool({ const: 'push' }));
    expect(chooseOutputMethod(fixed, { _tool: 'note', _outputMethod: 'set' })).toBe('push');
    expect(chooseOutputMethod(readTool(tool()), { _tool: 'note', _outputMethod: 'push' })).toBe(
      'set',
    );
    const choice = readTool(tool({ enum: ['set', 'push'] }));
    expect(chooseOutputMethod(choice, { _tool: 'note' })).toBe('set');
    // A strict-mode model writes null for an optional field it leaves out.
    const leftOut = { _tool: 'note', _outputMethod: null } as unknown as Call;
    expect(chooseOutputMethod(choice, leftOut)).toBe('set');
    expect(chooseOutputMethod(choice, { _tool: 'note', _outputMethod: 'push' })).toBe('push');
    let caught: unknown;
    try {
      chooseOutputMethod(choice, { _tool: 'note', _outputMethod: 'merge' });
    } catch (error) {
      caught = error;
    }
    expect(OutputMethodNotAllowedError.isInstance(caught)).toBe(true);
    const refused = caught as OutputMethodNotAllowedError;
    expect(refused).toMatchObject({ toolName: 'note', method: 'merge', allowed: ['set', 'push'] });
    expect(refused.message).toContain('"merge"');
    const withDefault = readTool(tool({ enum: ['push', 'concat'], default: 'concat' }));
    expect(chooseOutputMethod(withDefault, { _tool: 'note' })).toBe('concat');
    expect(() => chooseOutputMethod(readTool(tool({ enum: ['push'] })), { _tool: 'note' })).toThrow(
      OutputMethodNotAllowedError,
    );
  });
});

describe('_outputMethod in the Vessel schema (R-OUT-4)', () => {
  it('R-OUT-4 a fixed method is hidden from the model, like a fixed _outputPath', () => {
    const schema = callSchema(tool({ const: 'push' }, { const: 'state.log' }));
    expect(schema.properties?._outputMethod).toBeUndefined();
    expect(schema.properties?._outputPath).toBeUndefined();
    expect(JSON.stringify(schema)).not.toContain('push');
  });

  it('R-OUT-4 a chosen method is offered with its enum and a description; optional when set is allowed', () => {
    const schema = callSchema(tool({ enum: ['set', 'push'] }));
    expect(schema.properties?._outputMethod).toEqual({
      enum: ['set', 'push'],
      description:
        'How the output is written at _outputPath (set when omitted): set = replace the value, ' +
        'push = append the output to the array.',
    });
    expect(schema.required).not.toContain('_outputMethod');
    const described = callSchema(tool({ type: 'string', description: 'How to write.' }));
    expect(described.properties?._outputMethod).toEqual({
      type: 'string',
      description: 'How to write.',
      enum: ['set', 'merge', 'assign', 'push', 'concat'],
    });
  });

  it('R-OUT-4 the method is required when the default is not among the choices', () => {
    expect(callSchema(tool({ enum: ['push', 'concat'] })).required).toContain('_outputMethod');
    expect(callSchema(tool({ enum: ['push', 'concat'], default: 'push' })).required).not.toContain(
      '_outputMethod',
    );
  });

  it('R-OUT-4 a Tool that writes no output never shows the method', () => {
    expect(
      callSchema(tool({ enum: ['set', 'push'] }, null)).properties?._outputMethod,
    ).toBeUndefined();
  });

  it('R-OUT-4 the Vessel validates a chosen method and rejects one outside the enum', () => {
    const vessel = buildVesselSchema([tool({ enum: ['set', 'push'] })]);
    const call = { _tool: 'note', text: 'hi', _outputPath: 'log', _outputMethod: 'push' };
    expect(validateJson(vessel, { calls: [call], output: null })).toEqual([]);
    expect(
      validateJson(vessel, { calls: [{ ...call, _outputMethod: 'merge' }], output: null }),
    ).not.toEqual([]);
    const fixed = buildVesselSchema([tool({ const: 'push' })]);
    expect(validateJson(fixed, { calls: [call], output: null })).not.toEqual([]);
  });
});
