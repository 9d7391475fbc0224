import { IsOptional, IsString, ValidateNested } from 'class-validator';
import {
  Activity,
  createContainer,
  createParamsTransformer,
  DecoratorError,
  Describe,
  disposeContainer,
  Executor,
  getMetadataStorage,
  OfflineProvider,
  Output,
  ParamsValidationError,
  Tool,
  toolSchema,
  type ContainerInstance,
  type Message,
} from 'ideact';

/**
 * Issue 14 item 4: params are what the class says. A property without a class-validator type rule is
 * typed from its design type (never dropped from the schema), or fails at container start with a
 * DecoratorError naming the class and the property.
 */
const provider = new OfflineProvider();
const containers: ContainerInstance[] = [];
beforeEach(() => getMetadataStorage().reset());
afterEach(() => {
  for (const container of containers.splice(0)) disposeContainer(container);
});

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

async function paramsError(run: () => Promise<unknown>): Promise<ParamsValidationError> {
  try {
    await run();
  } catch (error) {
    expect(ParamsValidationError.isInstance(error)).toBe(true);
    expect((error as ParamsValidationError).code).toBe('PARAMS_VALIDATION');
    return error as ParamsValidationError;
  }
  throw new Error('expected a ParamsValidationError');
}

describe('params without a class-validator type decorator (issue 14 item 4)', () => {
  it('a property with only @Describe is in the schema, typed from its design type, in declaration order', () => {
    @Tool()
    class Plan {
      @Describe('Destination city')
      city!: string;
      @IsString()
      traveller!: string;
      @Describe('Nights to stay')
      nights!: number;
      @Describe('Book breakfast')
      breakfast!: boolean;
      @Describe('Sights to visit')
      sights!: string[];
    }
    const schema = toolSchema(Plan);
    expect(schema.properties).toEqual({
      _tool: { const: 'plan' },
      city: { type: 'string', description: 'Destination city' },
      traveller: { type: 'string' },
      nights: { type: 'number', description: 'Nights to stay' },
      breakfast: { type: 'boolean', description: 'Book breakfast' },
      sights: { type: 'array', description: 'Sights to visit', items: {} },
    });
    expect(schema.required).toEqual(
      expect.arrayContaining(['_tool', 'city', 'traveller', 'nights', 'breakfast', 'sights']),
    );
  });

  it('@IsOptional() alone no longer means "any value": the design type is the type, and it stays optional', () => {
    @Tool()
    class Search {
      @IsString()
      query!: string;
      @IsOptional()
      limit?: number;
    }
    const schema = toolSchema(Search);
    expect(schema.properties.limit).toEqual({ type: 'number' });
    expect(schema.required).toEqual(['_tool', 'query']);
  });

  it('the design type also validates the params of explicit calls, and the Activity receives them', async () => {
    @Tool()
    @Activity('book')
    class Booking {
      @Describe('Nights to stay')
      nights!: number;
    }
    const transformer = createParamsTransformer(Booking, 'booking');
    const error = await paramsError(async () => transformer({ nights: 'three' }));
    expect(error.message).toContain('Invalid params for tool "booking"');
    expect(error.issues.map((issue) => issue.path)).toEqual(['nights']);

    let received: unknown;
    const container = createContainer({
      tools: [Booking],
      activities: [{ book: (params) => (received = params) }],
      provider,
    });
    containers.push(container);
    const [result] = (await container
      .get(Executor)
      .call({ _tool: 'booking', nights: 3 }, [])) as Message[];
    expect(result).toMatchObject({ output: { nights: 3 } });
    expect(received).toBeInstanceOf(Booking);
  });

  it('a property whose type says nothing at run time (union, any) fails at container start naming class and property', () => {
    @Tool()
    @Activity('find')
    class Find {
      @Describe('A name or an id')
      key!: string | number;
    }
    const error = decoratorError(() =>
      createContainer({ tools: [Find], activities: [{ find: () => 1 }], provider }),
    );
    expect(error.target).toBe('Find');
    expect(error.message).toContain('Find.key');
    expect(error.message).toContain('@Allow()');
  });

  it('an @Output class with only @Describe properties is a schema (typed from the design types)', () => {
    class Verdict {
      @Describe('Whether the text is polite')
      polite!: boolean;
    }
    @Tool()
    @Output(Verdict)
    class Judge {
      @IsString()
      text!: string;
    }
    expect(toolSchema(Judge).properties._output).toEqual({
      type: 'object',
      properties: { polite: { type: 'boolean', description: 'Whether the text is polite' } },
      required: ['polite'],
    });
  });
});

describe('nested classes without @Type fail at container start, not on every call (issue 14 item 4)', () => {
  class Coordinates {
    @IsString()
    lat!: string;
  }

  it('@ValidateNested() without @Type(() => Coordinates): DecoratorError naming class, property and the fix', () => {
    @Tool()
    @Activity('locate')
    class Locate {
      @ValidateNested()
      at!: Coordinates;
    }
    const error = decoratorError(() =>
      createContainer({ tools: [Locate], activities: [{ locate: () => 1 }], provider }),
    );
    expect(error.target).toBe('Locate');
    expect(error.message).toContain('Locate.at');
    expect(error.message).toContain('Add @Type(() => Coordinates) from class-transformer');
  });

  it('a nested class with only @Describe: DecoratorError asking for @ValidateNested() and @Type', () => {
    @Tool()
    @Activity('locate')
    class Locate {
      @Describe('Where')
      at!: Coordinates;
    }
    const error = decoratorError(() =>
      createContainer({ tools: [Locate], activities: [{ locate: () => 1 }], provider }),
    );
    expect(error.message).toContain('Locate.at');
    expect(error.message).toContain('Add @ValidateNested() and @Type(() => Coordinates)');
  });
});
