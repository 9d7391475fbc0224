import { IsString } from 'class-validator';
import {
  createContainer,
  DecoratorError,
  Delegate,
  Describe,
  disposeContainer,
  Executor,
  getMetadataStorage,
  Imports,
  Module,
  OfflineProvider,
  Output,
  Scopes,
  Tool,
  toolSchema,
  type ResultMessage,
} from 'ideact';
import { ScriptedProvider } from 'ideact/testing';

beforeEach(() => getMetadataStorage().reset());

/** The schema with the newer names written as the seed names (`_delegate` → `_module`, `_scopes` → `_imports`). */
function asSeeds(schema: object): unknown {
  return JSON.parse(
    JSON.stringify(schema)
      .replace(/"_delegate"/g, '"_module"')
      .replace(/"_scopes"/g, '"_imports"'),
  );
}

function decoratorError(run: () => unknown): DecoratorError {
  try {
    run();
  } catch (error) {
    expect(DecoratorError.isInstance(error)).toBe(true);
    return error as DecoratorError;
  }
  throw new Error('expected a DecoratorError');
}

describe('@Delegate and @Scopes: @Module and @Imports under the newer names (R-DEL-1, R-SCOPE-1)', () => {
  it('R-DEL-1 R-SCOPE-1 fixed scopes + upfront delegate: the same tool schema as the seed decorators, with `_delegate` / `_scopes`', () => {
    @Tool({ name: 'compose', description: 'Writes a song.' })
    @Delegate('ideas/composer.json', { resolution: 'upfront' })
    @Scopes(['input', 'state'])
    class ComposeActs {
      @Describe('The mood')
      @IsString()
      mood!: string;
    }
    @Tool({ name: 'compose', description: 'Writes a song.' })
    @Module('ideas/composer.json', { resolution: 'upfront' })
    @Imports(['input', 'state'])
    class ComposeSeeds {
      @Describe('The mood')
      @IsString()
      mood!: string;
    }
    const acts = toolSchema(ComposeActs);
    expect(acts.properties._delegate).toEqual({ const: 'ideas/composer.json' });
    expect(acts.properties._scopes).toEqual({ const: ['input', 'state'] });
    expect(acts.properties._resolution).toEqual({ const: 'upfront' });
    expect(acts.properties).not.toHaveProperty('_module');
    expect(acts.properties).not.toHaveProperty('_imports');
    expect(asSeeds(acts)).toEqual(toolSchema(ComposeSeeds));
  });

  it('R-SCOPE-1 scopes chosen by the model: `{ choose }` writes the array-of-enum form under `_scopes`', () => {
    @Tool()
    @Delegate('anonymous')
    @Scopes({ choose: ['input', 'state', 'profile'] })
    @Output({ type: 'string' })
    class Advise {}
    @Tool({ name: 'advise' })
    @Module('anonymous')
    @Imports({ choose: ['input', 'state', 'profile'] })
    @Output({ type: 'string' })
    class AdviseSeeds {}
    const acts = toolSchema(Advise);
    expect(acts.properties._scopes).toEqual({
      type: 'array',
      items: { enum: ['input', 'state', 'profile'] },
    });
    expect(asSeeds(acts)).toEqual(toolSchema(AdviseSeeds));
  });

  it('the two names mix: @Module with @Scopes writes `_module` and `_scopes`', () => {
    @Tool()
    @Module('anonymous')
    @Scopes(['input'])
    @Output({ type: 'string' })
    class Mixed {}
    const schema = toolSchema(Mixed);
    expect(schema.properties._module).toEqual({ const: 'anonymous' });
    expect(schema.properties._scopes).toEqual({ const: ['input'] });
  });

  it('misuse is reported under the name written: @Delegate(""), @Scopes([]), anonymous + upfront', () => {
    const empty = decoratorError(() => {
      @Delegate('')
      class Empty {}
      return Empty;
    });
    expect(empty.decorator).toBe('@Delegate');
    expect(empty.message).toContain('@Delegate on Empty: the delegate reference is empty');
    expect(empty.message).toContain("`@Delegate('anonymous')`");

    const upfront = decoratorError(() => {
      @Delegate('anonymous', { resolution: 'upfront' })
      class Upfront {}
      return Upfront;
    });
    expect(upfront.message).toContain("an 'anonymous' delegate has no Idea file");

    const noKinds = decoratorError(() => {
      @Scopes([])
      class NoKinds {}
      return NoKinds;
    });
    expect(noKinds.decorator).toBe('@Scopes');
    expect(noKinds.message).toContain("`@Scopes(['input', 'state'])`");

    // The seed names keep their words.
    expect(
      decoratorError(() => {
        @Module('')
        class Old {}
        return Old;
      }).message,
    ).toContain('@Module on Old: the module reference is empty');
  });

  it('an alias and its original on one class is one decorator applied twice', () => {
    const both = decoratorError(() => {
      @Delegate('anonymous')
      @Module('anonymous')
      class Both {}
      return Both;
    });
    expect(both.decorator).toBe('@Delegate');
    expect(both.message).toContain('applied together with @Module, its other name');
    const scopes = decoratorError(() => {
      @Imports(['input'])
      @Scopes(['input'])
      class Twice {}
      return Twice;
    });
    expect(scopes.message).toContain('@Imports on Twice: applied together with @Scopes');
    expect(
      decoratorError(() => {
        @Scopes(['input'])
        @Scopes(['state'])
        class Same {}
        return Same;
      }).message,
    ).toContain('@Scopes on Same: applied twice to the same class.');
  });

  it('a class without @Tool names the alias it has', () => {
    @Delegate('anonymous')
    @Scopes(['input'])
    class NotATool {}
    expect(() => toolSchema(NotATool)).toThrow('(it has @Delegate, @Scopes)');
  });

  it('R-DEL-1 a @Delegate class tool can run (no "no way to run" error) and runs in a clean room', async () => {
    class Summary {
      @IsString()
      summary!: string;
    }
    @Tool({ description: 'Summarizes a topic' })
    @Delegate('anonymous')
    @Scopes(['input'])
    @Output(Summary)
    class Summarize {
      @IsString()
      topic!: string;
    }
    const provider = new ScriptedProvider([{ summary: 'Cats sleep.' }]);
    const container = createContainer({ tools: [Summarize], provider });
    try {
      const [result] = await container.get(Executor).call({ _tool: 'summarize', topic: 'cats' }, [
        { type: 'text', text: 'PARENT-TEXT' },
        { type: 'input', input: { audience: 'children' } },
      ]);
      expect((result as ResultMessage).output).toEqual({ summary: 'Cats sleep.' });
      const sent = provider.requests[0]!.messages.map((message) => message.content).join('\n');
      expect(sent).toContain('"audience": "children"');
      expect(sent).not.toContain('PARENT-TEXT');
    } finally {
      disposeContainer(container);
    }
    // Without @Output, @Delegate or an Activity the container still refuses the class, naming both names.
    @Tool()
    class Idle {
      @IsString()
      topic!: string;
    }
    expect(() => createContainer({ tools: [Idle], provider: new OfflineProvider() })).toThrow(
      'it has neither @Output nor @Module / @Delegate',
    );
  });
});
