import {
  IsInt,
  IsString,
  Validate,
  ValidateNested,
  ValidatorConstraint,
  type ValidatorConstraintInterface,
} from 'class-validator';
import {
  Activity,
  ContainerConfigurationError,
  createContainer,
  DecoratorError,
  disposeContainer,
  Executor,
  getMetadataStorage,
  OfflineProvider,
  Service,
  Tool,
  type ContainerInstance,
  type Message,
  type ResultMessage,
} from 'ideact';

/**
 * Issue 14 item 11: one way to say each thing. `new Executor` takes `@Tool` classes with exactly the
 * checks and params transformers of `createContainer`, and `activities` has one shape: an array.
 */
const provider = new OfflineProvider();
const containers: ContainerInstance[] = [];
beforeEach(() => getMetadataStorage().reset());
afterEach(() => {
  jest.restoreAllMocks();
  for (const container of containers.splice(0)) disposeContainer(container);
});

/** The error `start` throws (fails the test when it does not throw). */
function thrown(start: () => unknown): Error {
  try {
    start();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected an error');
}

/** The same error through both entry points: same class, code and problem (only the API name differs). */
function expectSameError(config: { tools: unknown[]; activities?: unknown[] }): Error {
  const viaContainer = thrown(() => createContainer({ ...config, provider } as never));
  const viaExecutor = thrown(() => new Executor({ ...config, provider } as never));
  expect(viaExecutor.constructor).toBe(viaContainer.constructor);
  expect((viaExecutor as { code?: string }).code).toBe((viaContainer as { code?: string }).code);
  expect(viaExecutor.message.replace('new Executor(', 'createContainer(')).toBe(
    viaContainer.message,
  );
  return viaExecutor;
}

function result(messages: Message[]): ResultMessage {
  return messages[0] as ResultMessage;
}

/** A rule only class-validator knows (not in the JSON Schema): shows that the params transformer ran. */
@ValidatorConstraint({ name: 'capitalized' })
class Capitalized implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return typeof value === 'string' && /^[A-Z]/.test(value);
  }
  defaultMessage(): string {
    return 'city must start with a capital letter';
  }
}

describe('new Executor with @Tool classes is checked like createContainer (issue 14 item 11)', () => {
  it('runs a class tool with its params transformer: the Activity gets the instance, bad params are PARAMS_VALIDATION', async () => {
    @Tool()
    @Activity('fetchWeather')
    class WeatherReport {
      @IsString()
      @Validate(Capitalized)
      city!: string;
    }
    let received: unknown;
    const executor = new Executor({
      provider,
      tools: [WeatherReport],
      activities: [{ fetchWeather: (params) => ((received = params), 'sunny') }],
    });
    expect(executor.tools[0]?.properties).toHaveProperty('city', { type: 'string' });

    const ok = result(await executor.call({ _tool: 'weatherReport', city: 'Oslo' }, []));
    expect(ok.output).toBe('sunny');
    expect(received).toBeInstanceOf(WeatherReport);

    const bad = result(await executor.call({ _tool: 'weatherReport', city: 'oslo' }, []));
    expect(bad.error?.code).toBe('PARAMS_VALIDATION');
    expect(bad.error?.message).toContain('- city: city must start with a capital letter');

    // Children (module executors) keep the resolved schemas and transformers.
    const child = executor.child({ depth: 1, chain: ['m'] });
    const childBad = result(await child.call({ _tool: 'weatherReport', city: 'oslo' }, []));
    expect(childBad.error?.code).toBe('PARAMS_VALIDATION');
  });

  it('non-tool classes, decorator misuse and unregistered Activities: the container errors', () => {
    @Tool()
    @Activity('fetchWeather')
    class WeatherReport {
      @IsString()
      city!: string;
    }

    class NotATool {
      @IsString()
      city!: string;
    }
    expect(expectSameError({ tools: [NotATool], activities: [] }).message).toContain(
      'is not decorated with @Tool()',
    );

    class Point {
      @IsInt()
      x!: number;
    }
    @Tool()
    @Activity('plot')
    class Plot {
      @ValidateNested()
      point!: Point;
    }
    const misuse = expectSameError({ tools: [Plot], activities: [{ plot: () => 1 }] });
    expect(DecoratorError.isInstance(misuse)).toBe(true);
    expect(misuse.message).toContain('Add @Type(() => Point)');

    expect(
      expectSameError({ tools: [WeatherReport], activities: [{ other: () => 1 }] }).message,
    ).toContain('names the Activity "fetchWeather", which nobody registered');
  });
});

describe('activities: one shape everywhere (issue 14 item 11)', () => {
  it('new Executor takes an array of maps, like createContainer', async () => {
    const executor = new Executor({
      provider,
      tools: [],
      activities: [
        { add: (params) => (params.a as number) + (params.b as number) },
        { one: () => 1 },
      ],
    });
    expect([...executor.activityNames]).toEqual(['add', 'one']);
    const duplicate = thrown(
      () => new Executor({ provider, tools: [], activities: [{ one: () => 1 }, { one: () => 2 }] }),
    );
    expect(ContainerConfigurationError.isInstance(duplicate)).toBe(true);
    expect(duplicate.message).toContain('two Activities are named "one"');
  });

  it('a single map still works, with one DeprecationWarning (IDEACT_DEP_ACTIVITIES_RECORD)', () => {
    const warn = jest.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    const first = new Executor({ provider, tools: [], activities: { add: () => 1 } });
    new Executor({ provider, tools: [], activities: { add: () => 1 } });
    expect([...first.activityNames]).toEqual(['add']);
    const deprecations = warn.mock.calls.filter(
      ([, options]) =>
        (options as { code?: string } | undefined)?.code === 'IDEACT_DEP_ACTIVITIES_RECORD',
    );
    expect(deprecations).toHaveLength(1);
    expect(deprecations[0]![0]).toContain('activities: [{ name: fn }]');
    expect(deprecations[0]![1]).toMatchObject({ type: 'DeprecationWarning' });
  });

  it('a @Service class given to new Executor: an error that points to createContainer; the container itself warns nothing', () => {
    @Service()
    class Maths {
      @Activity('add')
      add(): number {
        return 2;
      }
    }
    const error = thrown(() => new Executor({ provider, tools: [], activities: [Maths as never] }));
    expect(ContainerConfigurationError.isInstance(error)).toBe(true);
    expect(error.message).toContain('activities[0] (class Maths)');
    expect(error.message).toContain('createContainer({ activities: [Maths] })');

    const warn = jest.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    const container = createContainer({ tools: [], activities: [Maths], provider });
    containers.push(container);
    expect([...container.get(Executor).activityNames]).toEqual(['add']);
    expect(warn).not.toHaveBeenCalled();
  });
});
