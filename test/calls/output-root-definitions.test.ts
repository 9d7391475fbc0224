import { Executor, readTool, type Message, type ResultMessage, type ToolSchema } from 'ideact';
import { ScriptedProvider } from 'ideact/testing';

/**
 * A Tool's `_output` may reference the Tool schema's root `$defs` (R-TOOL schemas are JSON Schema
 * documents): the output is validated against it with those definitions, for an Activity's return
 * value and for an inline latent `_output` alike.
 */
const forecast: ToolSchema = {
  type: 'object',
  properties: {
    _tool: { const: 'forecast' },
    city: { type: 'string' },
    _output: { $ref: '#/$defs/Forecast' },
  },
  required: ['_tool', 'city'],
  $defs: {
    Forecast: {
      type: 'object',
      properties: { celsius: { type: 'number' } },
      required: ['celsius'],
    },
  },
};

function result(messages: Message[]): ResultMessage {
  return messages[0] as ResultMessage;
}

describe('_output with references to the root $defs', () => {
  it('readTool keeps the root definitions with the output schema', () => {
    expect(readTool(forecast).output).toEqual({
      $ref: '#/$defs/Forecast',
      $defs: forecast.$defs,
    });
  });

  it("validates an Activity's output against the referenced definition", async () => {
    let celsius: unknown = 4;
    const executor = new Executor({
      provider: new ScriptedProvider([]),
      tools: [{ ...forecast, properties: { ...forecast.properties, _activity: { const: 'fc' } } }],
      activities: [{ fc: () => ({ celsius }) }],
    });
    expect(result(await executor.call({ _tool: 'forecast', city: 'Oslo' }, [])).output).toEqual({
      celsius: 4,
    });
    celsius = 'warm';
    const failed = result(await executor.call({ _tool: 'forecast', city: 'Oslo' }, []));
    expect(failed.error?.code).toBe('INVALID_ACTIVITY_OUTPUT');
    expect(failed.error?.message).toContain('/celsius');
  });

  it('validates an inline latent _output against it too', async () => {
    const executor = new Executor({ provider: new ScriptedProvider([]), tools: [forecast] });
    const valid = await executor.call(
      { _tool: 'forecast', city: 'Oslo', _output: { celsius: 2 } },
      [],
    );
    expect(result(valid).output).toEqual({ celsius: 2 });
    const invalid = await executor.call({ _tool: 'forecast', city: 'Oslo', _output: {} }, []);
    expect(result(invalid).error?.code).toBe('INVALID_CALL_OUTPUT');
  });
});
