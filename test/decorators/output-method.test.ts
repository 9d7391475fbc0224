import { IsString } from 'class-validator';
import {
  Activity,
  callSchema,
  createAgent,
  DecoratorError,
  getMetadataStorage,
  OutputPath,
  readTool,
  Tool,
  toolSchema,
  viewOfKind,
  type Message,
  type OutputMethod,
} from 'ideact';
import { ScriptedProvider } from 'ideact/testing';

/** Issue 17 item 2: `@OutputPath(path, { method })` fixes the output method or leaves it to the LLM (R-OUT-4). */

beforeEach(() => getMetadataStorage().reset());

function misuse(declare: () => unknown): DecoratorError {
  try {
    declare();
  } catch (error) {
    expect(DecoratorError.isInstance(error)).toBe(true);
    return error as DecoratorError;
  }
  throw new Error('expected a DecoratorError');
}

describe('@OutputPath(path, { method }) (R-OUT-4)', () => {
  it('R-OUT-4 a fixed method → _outputMethod const; a choice → a string enum (with its default)', () => {
    @Tool()
    @OutputPath('state.log', { method: 'push' })
    class Log {
      @IsString() line!: string;
    }
    @Tool()
    @OutputPath({ anyPath: true }, { method: { oneOf: ['set', 'merge'], default: 'merge' } })
    class Save {}
    @Tool()
    @OutputPath('state.items', { method: { anyMethod: true } })
    class Any {}
    @Tool()
    @OutputPath('state.plain')
    class Plain {}

    expect(toolSchema(Log).properties._outputMethod).toEqual({ const: 'push' });
    expect(toolSchema(Save).properties._outputMethod).toEqual({
      type: 'string',
      enum: ['set', 'merge'],
      default: 'merge',
    });
    expect(toolSchema(Any).properties._outputMethod).toEqual({
      type: 'string',
      enum: ['set', 'merge', 'assign', 'push', 'concat'],
    });
    expect(toolSchema(Plain).properties._outputMethod).toBeUndefined();
  });

  it('R-OUT-4 round trip: the schema reads back as the same setting, and the Vessel shows only a choice', () => {
    @Tool()
    @OutputPath('state.log', { method: 'concat' })
    class Fixed {}
    @Tool()
    @OutputPath({ oneOf: ['state.a', 'state.b'] }, { method: { oneOf: ['push', 'concat'] } })
    class Chosen {}

    const fixed = JSON.parse(JSON.stringify(toolSchema(Fixed))) as ReturnType<typeof toolSchema>;
    expect(readTool(fixed).outputMethod).toEqual({ mode: 'fixed', method: 'concat' });
    expect(callSchema(fixed).properties?._outputMethod).toBeUndefined();
    const chosen = toolSchema(Chosen);
    expect(readTool(chosen).outputMethod).toEqual({ mode: 'choice', methods: ['push', 'concat'] });
    expect(callSchema(chosen).properties?._outputMethod).toMatchObject({
      enum: ['push', 'concat'],
    });
    // Neither push nor concat is the default (set): the model must write one.
    expect(callSchema(chosen).required).toContain('_outputMethod');
  });

  it('R-OUT-4 misuse: an unknown method, an empty choice, a default outside the choice', () => {
    expect(
      misuse(() => OutputPath('state.x', { method: 'append' as OutputMethod })(class Unknown {}))
        .message,
    ).toContain('"append" is not an output method');
    expect(
      misuse(() => OutputPath('state.x', { method: { oneOf: [] } })(class Empty {})).message,
    ).toContain('{ oneOf: [methods] }');
    expect(
      misuse(() =>
        OutputPath('state.x', { method: { oneOf: ['push'], default: 'set' } })(class Outside {}),
      ).message,
    ).toContain('the default method "set" is not one of the choices');
  });

  it('R-OUT-3 a decorated Tool with a fixed push appends through an agent run', async () => {
    @Tool()
    @Activity('line')
    @OutputPath('state.log', { method: 'push' })
    class Line {
      @IsString() text!: string;
    }
    const provider = new ScriptedProvider([
      {
        calls: [
          { _tool: 'line', text: 'one' },
          { _tool: 'line', text: 'two' },
        ],
        output: null,
      },
      { calls: [], output: 'done' },
    ]);
    const agent = createAgent({
      tools: [Line],
      activities: [{ line: (params: Record<string, unknown>) => String(params.text) }],
      provider,
      actorConcurrency: 1,
    });
    const result = await agent.run({ task: 'log', maxTurns: 3 });
    const messages = result.state.nodes.map((node) => node.message) as Message[];
    expect(viewOfKind(messages, 'state')?.data).toEqual({ log: ['one', 'two'] });
  });
});
