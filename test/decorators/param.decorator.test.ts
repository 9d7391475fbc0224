import { IsInt, IsOptional, IsString, Min } from 'class-validator';
import {
  createParamsTransformer,
  DecoratorError,
  Describe,
  getMetadataStorage,
  Output,
  Param,
  ParamsValidationError,
  Tool,
  toolSchema,
  type ParamOptions,
} from 'ideact';

/**
 * Issue 29 item 1: `@Param({ type })` / `@Param({ schema })` states a param's type explicitly. It
 * only records; the schema builder and the params transformer use it, whatever compiled the class
 * (here ts-jest, with metadata: `@Param` wins over the TypeScript type).
 */
beforeEach(() => getMetadataStorage().reset());

function decoratorError(start: () => unknown): DecoratorError {
  try {
    start();
  } catch (error) {
    expect(DecoratorError.isInstance(error)).toBe(true);
    expect((error as DecoratorError).code).toBe('DECORATOR_MISUSE');
    return error as DecoratorError;
  }
  throw new Error('expected a DecoratorError');
}

async function issuesOf(run: unknown): Promise<ParamsValidationError['issues']> {
  const error = await Promise.resolve(run).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(ParamsValidationError.isInstance(error)).toBe(true);
  return (error as ParamsValidationError).issues;
}

describe('@Param (issue 29 item 1)', () => {
  it('{ type } adds the rule of that type: in the schema, in declaration order, and validated', async () => {
    @Tool()
    class Book {
      @IsString() title!: string;
      @Param({ type: 'integer' }) nights!: number;
      @Param({ type: 'boolean' }) @IsOptional() breakfast?: boolean;
      @IsString() guest!: string;
    }
    const schema = toolSchema(Book);
    expect(Object.keys(schema.properties)).toEqual([
      '_tool',
      'title',
      'nights',
      'breakfast',
      'guest',
    ]);
    // `nights: number` would be a number; @Param says integer.
    expect(schema.properties.nights).toEqual({ type: 'integer' });
    expect(schema.properties.breakfast).toEqual({ type: 'boolean' });
    expect([...(schema.required ?? [])].sort()).toEqual(['_tool', 'guest', 'nights', 'title']);
    const transform = createParamsTransformer(Book, 'book');
    const issues = await issuesOf(
      transform({ title: 'Inn', nights: 1.5, breakfast: 'yes', guest: 'Ada' }),
    );
    expect(issues.map((issue) => issue.path).sort()).toEqual(['breakfast', 'nights']);
    await expect(transform({ title: 'Inn', nights: 2, guest: 'Ada' })).resolves.toMatchObject({
      nights: 2,
    });
  });

  it('{ type } beside other rules of the property: its type wins in the schema, the rules stay', () => {
    @Tool()
    class Pay {
      @Param({ type: 'integer' }) @Min(0) cents!: number;
      @Param({ type: 'integer' }) @IsInt() count!: number;
    }
    const { properties } = toolSchema(Pay);
    expect(properties.cents).toEqual({ type: 'integer', minimum: 0 });
    expect(properties.count).toEqual({ type: 'integer' });
  });

  it('{ schema } is the property schema (with @Describe) and explicit calls are checked against it', async () => {
    @Tool()
    class Convert {
      @Describe('Unit system')
      @Param({ schema: { type: 'string', enum: ['metric', 'imperial'] } })
      units!: string;
      @Param({ schema: { anyOf: [{ type: 'string' }, { type: 'number' }] } })
      value!: string | number;
    }
    const { properties } = toolSchema(Convert);
    expect(properties.units).toEqual({
      type: 'string',
      description: 'Unit system',
      enum: ['metric', 'imperial'],
    });
    expect(properties.value).toEqual({ anyOf: [{ type: 'string' }, { type: 'number' }] });
    const transform = createParamsTransformer(Convert, 'convert');
    const issues = await issuesOf(transform({ units: 'nautical', value: 3 }));
    expect(issues).toEqual([
      expect.objectContaining({
        path: 'units',
        messages: [
          'units does not match its @Param schema: must be equal to one of the allowed values: "metric", "imperial"',
        ],
      }),
    ]);
    await expect(transform({ units: 'metric', value: 'three' })).resolves.toMatchObject({
      units: 'metric',
      value: 'three',
    });
  });

  it('an @Output class typed by @Param alone is a schema', () => {
    class Result {
      @Param({ type: 'number' }) total!: number;
    }
    @Tool()
    @Output(Result)
    class Sum {}
    expect(toolSchema(Sum).properties._output).toEqual({
      type: 'object',
      properties: { total: { type: 'number' } },
      required: ['total'],
    });
  });

  it.each<[string, unknown, string]>([
    ['neither type nor schema', {}, 'exactly one of `type` and `schema`'],
    ['both', { type: 'string', schema: { type: 'string' } }, 'exactly one of `type` and `schema`'],
    ['an unknown type', { type: 'text' }, 'unknown type "text"'],
    ['a schema that is not an object', { schema: 'string' }, 'not a JSON Schema object'],
    ['an invalid schema', { schema: { type: 'nonsense' } }, 'not a valid JSON Schema'],
  ])('misuse fails when the decorator runs: %s', (_case, options, problem) => {
    const error = decoratorError(() => {
      class Broken {
        @Param(options as ParamOptions) city!: string;
      }
      return Broken;
    });
    expect(error.decorator).toBe('@Param');
    expect(error.target).toBe('Broken.city');
    expect(error.message).toContain(problem);
  });

  it('applied twice to one property fails when the decorator runs', () => {
    const error = decoratorError(() => {
      class Twice {
        @Param({ type: 'string' }) @Param({ type: 'string' }) city!: string;
      }
      return Twice;
    });
    expect(error.message).toContain('applied twice');
  });
});
