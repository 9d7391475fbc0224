import { Type } from 'class-transformer';
import { IsNumber, IsString, ValidateNested } from 'class-validator';
import {
  Activity,
  DecoratorError,
  Describe,
  getMetadataStorage,
  IdeactError,
  Imports,
  Module,
  Output,
  OutputPath,
  Tool,
  toolSchema,
  type ClassConstructor,
  type JSONSchema,
} from 'ideact';

beforeEach(() => getMetadataStorage().reset());

/** Runs `declare` and returns the DecoratorError it threw (fails the test when it does not throw). */
function misuse(declare: () => unknown): DecoratorError {
  try {
    declare();
  } catch (error) {
    expect(DecoratorError.isInstance(error)).toBe(true);
    const typed = error as DecoratorError;
    expect(typed.fault).toBe('configuration');
    expect(typed.code).toBe('DECORATOR_MISUSE');
    expect(typed.message).toContain('\nPotential solutions:\n- ');
    expect(typed.solutions.length).toBeGreaterThan(0);
    return typed;
  }
  throw new Error('expected a DecoratorError');
}

describe('misuse fails at decoration with a message that says how to fix it', () => {
  it('@Module with an empty path', () => {
    const error = misuse(() => {
      @Tool()
      @Module('')
      class Composer {}
      return Composer;
    });
    expect(error.decorator).toBe('@Module');
    expect(error.target).toBe('Composer');
    expect(error.message).toMatch(/^@Module on Composer: the module reference is empty/);
    expect(error.message).toContain("@Module('anonymous')");
  });

  it('@Module anonymous + upfront, and unknown resolutions', () => {
    expect(
      misuse(() => Module('anonymous', { resolution: 'upfront' })(class Anonymous {})).message,
    ).toContain('no Idea file to resolve upfront');
    expect(
      misuse(() => Module('a.json', { resolution: 'later' as 'upfront' })(class Later {})).message,
    ).toContain('resolution "later" is unknown');
  });

  it('@Output of a non-schema: a class without class-validator decorators, a primitive, a plain object', () => {
    class NotASchema {
      summary = '';
    }
    const onClass = misuse(() => Output(NotASchema)(class Summarize {}));
    expect(onClass.message).toContain('class NotASchema has no class-validator decorators');
    const onString = misuse(() => Output('string' as unknown as JSONSchema)(class Summarize {}));
    expect(onString.message).toContain('expected a class or a JSON Schema object, got string');
    const onObject = misuse(() => Output({ summary: 'string' } as JSONSchema)(class Summarize {}));
    expect(onObject.message).toContain('the object is not a JSON Schema');
    const invalid = misuse(() => Output({ type: 'strnig' })(class Summarize {}));
    expect(invalid.message).toContain('not a valid JSON Schema');
  });

  it('reflect-metadata not imported', () => {
    const reflect = Reflect as unknown as { getMetadata?: unknown };
    const original = reflect.getMetadata;
    delete reflect.getMetadata;
    try {
      const error = misuse(() => Tool()(class Weather {}));
      expect(error.message).toContain("import 'reflect-metadata'");
    } finally {
      reflect.getMetadata = original;
    }
  });

  it('a class without @Tool passed to toolSchema(), naming the decorators it does have', () => {
    @Module('anonymous')
    @Imports(['input'])
    class Forgotten {}
    const error = misuse(() => toolSchema(Forgotten));
    expect(error.message).toContain(
      'the class is not decorated with @Tool() (it has @Module, @Imports)',
    );
    expect(error.message).toContain('Add @Tool() above `class Forgotten`');
    expect(misuse(() => toolSchema({} as unknown as ClassConstructor)).message).toContain(
      'expected a class decorated with @Tool()',
    );
  });

  it('duplicate decorators, bad names, bad imports and output paths', () => {
    const twice = class Twice {};
    Tool()(twice);
    expect(misuse(() => Tool()(twice)).message).toContain('applied twice');
    expect(misuse(() => Tool({ name: '_hidden' })(class Hidden {})).message).toContain(
      'is not a valid tool name',
    );
    expect(misuse(() => Tool({ name: 'two words' })(class Spaced {})).message).toContain(
      'is not a valid tool name',
    );
    expect(misuse(() => Imports([])(class NoKinds {})).message).toContain(
      'non-empty list of distinct message kinds',
    );
    expect(misuse(() => Imports({ choose: ['input', 'input'] })(class Twice {})).message).toContain(
      'distinct',
    );
    expect(misuse(() => OutputPath('')(class Empty {})).message).toContain('is empty');
    expect(misuse(() => OutputPath('state.__proto__.x')(class Polluting {})).message).toContain(
      'forbidden segment "__proto__"',
    );
    expect(misuse(() => OutputPath({ oneOf: [] })(class None {})).message).toContain(
      "@OutputPath('state.weather')",
    );
  });

  it('@Activity on a static method, and two methods with one Activity name', () => {
    expect(
      misuse(() => {
        class Service1 {
          @Activity()
          static fetch(): void {}
        }
        return Service1;
      }).message,
    ).toContain('instance methods');
    expect(
      misuse(() => {
        class Service2 {
          @Activity('fetch')
          first(): void {}
          @Activity('fetch')
          second(): void {}
        }
        return Service2;
      }).message,
    ).toContain('already registers the Activity "fetch"');
  });

  it('@Describe on a property whose type says nothing at run time (union, any) fails when the schema is built', () => {
    @Tool()
    class Weather {
      @IsString()
      city!: string;
      @Describe('Days ahead or "week"')
      days!: number | string;
    }
    const error = misuse(() => toolSchema(Weather));
    expect(error.decorator).toBe('@Tool');
    expect(error.message).toContain('Weather.days');
    expect(error.message).toContain('@IsObject(), @IsString(), @IsNumber()');
    expect(misuse(() => Describe('')({}, 'city')).message).toContain('the description is empty');
  });

  it('params starting with "_" and nested objects without @Type', () => {
    @Tool()
    class Reserved {
      @IsString()
      _secret!: string;
    }
    expect(misuse(() => toolSchema(Reserved)).message).toContain(
      'the param "_secret" starts with "_"',
    );

    class Point {
      @IsNumber()
      x!: number;
    }
    @Tool()
    class Untyped {
      @ValidateNested({ each: true })
      points!: Point[];
    }
    expect(misuse(() => toolSchema(Untyped)).message).toContain('Add @Type(() => ItsClass)');
  });

  it('recursive classes cannot be inlined', () => {
    class TreeNode {
      @IsString()
      label!: string;
      @ValidateNested({ each: true })
      @Type(() => TreeNode)
      children!: TreeNode[];
    }
    @Tool()
    class Tree {
      @ValidateNested()
      @Type(() => TreeNode)
      root!: TreeNode;
    }
    expect(misuse(() => toolSchema(Tree)).message).toContain('TreeNode → TreeNode');
  });

  it('DecoratorError is an IdeactError with a stable code', () => {
    const error = misuse(() => Module('')(class Empty {}));
    expect(IdeactError.isInstance(error)).toBe(true);
    expect(error.toCallError().code).toBe('DECORATOR_MISUSE');
  });
});
