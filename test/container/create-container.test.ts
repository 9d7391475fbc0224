import {
  IsInt,
  IsOptional,
  IsString,
  Min,
  Validate,
  type ValidatorConstraintInterface,
  ValidatorConstraint,
} from 'class-validator';
import {
  Activity,
  ACTIVITIES,
  ACTOR,
  ContainerConfigurationError,
  createContainer,
  disposeContainer,
  DISCRIMINATOR,
  Executor,
  GENERATOR,
  getMetadataStorage,
  IDEACT_CONFIG,
  Module,
  MODULE_RUNNER,
  ModuleLoader,
  OfflineProvider,
  Output,
  ParamsValidationError,
  PROMPTER,
  PROVIDER,
  Service,
  Tool,
  Toolkit,
  TOOLS,
  type ContainerInstance,
  type Message,
  type ResultMessage,
  type ToolSchema,
} from 'ideact';
import { ScriptedProvider } from 'ideact/testing';

beforeEach(() => getMetadataStorage().reset());

const containers: ContainerInstance[] = [];
afterEach(() => {
  for (const container of containers.splice(0)) disposeContainer(container);
});
function track(container: ContainerInstance): ContainerInstance {
  containers.push(container);
  return container;
}

function resultOf(messages: Message[]): ResultMessage {
  const result = messages[0];
  if (result?.type !== 'result')
    throw new Error(`expected a result message, got ${JSON.stringify(result)}`);
  return result;
}

interface Forecast {
  city: string;
  temperature: number;
  source: string;
}

/**
 * Declares a weather tool whose Activity lives on a service that depends on another service.
 * Declared per test because the metadata storage is reset in beforeEach.
 */
function declareWeather() {
  // Declared first: the service's method signature mentions it (emitDecoratorMetadata).
  @Tool({ description: 'Current weather of a city' })
  @Activity('fetchWeather')
  class WeatherReport {
    @IsString()
    city!: string;

    @IsInt()
    @Min(1)
    @IsOptional()
    days?: number;
  }

  @Service()
  class WeatherApi {
    temperatureIn(city: string): number {
      return city.length * 2;
    }
  }

  @Service()
  class WeatherService {
    calls = 0;
    constructor(private readonly api: WeatherApi) {}

    @Activity('fetchWeather')
    fetch(params: WeatherReport): Forecast {
      this.calls += 1;
      if (!(params instanceof WeatherReport)) throw new Error('expected a WeatherReport instance');
      return { city: params.city, temperature: this.api.temperatureIn(params.city), source: 'api' };
    }
  }

  return { WeatherApi, WeatherService, WeatherReport };
}

describe('createContainer: DI wiring', () => {
  it('R-CALL-3 an Activity service with a constructor dependency is resolved by the container and runs the call', async () => {
    const { WeatherReport, WeatherService } = declareWeather();
    const container = track(
      createContainer({
        tools: [WeatherReport],
        activities: [WeatherService],
        provider: new ScriptedProvider([]),
      }),
    );
    const executor = container.get(Executor);
    expect(executor).toBeInstanceOf(Executor);
    expect(container.get(Executor)).toBe(executor);

    const messages = await executor.call({ _tool: 'weatherReport', city: 'Paris' }, []);
    expect(resultOf(messages)).toEqual({
      type: 'result',
      call: { _tool: 'weatherReport', city: 'Paris' },
      output: { city: 'Paris', temperature: 10, source: 'api' },
    });
    expect(container.get(WeatherService).calls).toBe(1);
  });

  it('a dependency replaced with container.set() is used, and only in that container', async () => {
    const { WeatherReport, WeatherService, WeatherApi } = declareWeather();
    const config = {
      tools: [WeatherReport],
      activities: [WeatherService],
      provider: new ScriptedProvider([]),
    };
    const faked = track(createContainer(config));
    const real = track(createContainer(config));
    faked.set(WeatherApi, { temperatureIn: () => -40 });

    const fakedRun = await faked.get(Executor).call({ _tool: 'weatherReport', city: 'Oslo' }, []);
    const realRun = await real.get(Executor).call({ _tool: 'weatherReport', city: 'Oslo' }, []);
    expect(resultOf(fakedRun).output).toEqual({ city: 'Oslo', temperature: -40, source: 'api' });
    expect(resultOf(realRun).output).toEqual({ city: 'Oslo', temperature: 8, source: 'api' });
    // Instances are per container too.
    expect(faked.get(WeatherService)).not.toBe(real.get(WeatherService));
    expect(faked.get(WeatherService).calls).toBe(1);
    expect(real.get(WeatherService).calls).toBe(1);
  });

  it('two containers are independent: registrations, overrides and instances', () => {
    const { WeatherReport, WeatherService } = declareWeather();
    const config = { tools: [WeatherReport], activities: [WeatherService] };
    const first = track(createContainer({ ...config, provider: new OfflineProvider() }));
    const second = track(createContainer({ ...config, provider: new OfflineProvider() }));
    expect(first.id).not.toBe(second.id);
    const scripted = new ScriptedProvider([]);
    first.set(PROVIDER, scripted);
    expect(first.get(PROVIDER)).toBe(scripted);
    expect(second.get(PROVIDER)).not.toBe(scripted);
    expect(first.get(Executor)).not.toBe(second.get(Executor));
    expect(first.get(Toolkit)).not.toBe(second.get(Toolkit));
    expect(first.get(ModuleLoader)).not.toBe(second.get(ModuleLoader));
    first.set(PROMPTER, { run: async () => undefined });
    expect(first.has(PROMPTER)).toBe(true);
    expect(second.has(PROMPTER)).toBe(false);
  });

  it('registers the tokens: config, tools, activities, provider, loader, toolkit; loop modules stay unset', async () => {
    const { WeatherReport, WeatherService } = declareWeather();
    const provider = new ScriptedProvider([]);
    const container = track(
      createContainer({
        tools: [WeatherReport, { type: 'object', properties: { _tool: { const: 'now' } } }],
        activities: [WeatherService, { now: () => '2026-01-01' }],
        provider,
        moduleRoot: __dirname,
      }),
    );
    expect(container.get(PROVIDER)).toBe(provider);
    expect(container.get(IDEACT_CONFIG).moduleRoot).toBe(__dirname);
    expect(container.get(TOOLS).map((tool) => tool.properties._tool)).toEqual([
      { const: 'weatherReport' },
      { const: 'now' },
    ]);
    expect(Object.keys(container.get(ACTIVITIES)).sort()).toEqual(['fetchWeather', 'now']);
    expect(container.get(ModuleLoader).root).toBe(__dirname);
    expect((await container.get(Toolkit).list()).length).toBe(2);
    for (const token of [PROMPTER, GENERATOR, DISCRIMINATOR, ACTOR]) {
      expect(container.has(token)).toBe(false);
    }
  });

  it('the Executor is built lazily: container.set(PROVIDER, …) before the first get takes effect', async () => {
    @Tool()
    @Output({ type: 'object', properties: { summary: { type: 'string' } }, required: ['summary'] })
    class Summarize {
      @IsString()
      text!: string;
    }
    // Module scope needs the provider: the anonymous module runs one sub-request.
    Module('anonymous')(Summarize);
    const container = track(
      createContainer({ tools: [Summarize], provider: new OfflineProvider() }),
    );
    const scripted = new ScriptedProvider([{ summary: 'short' }]);
    container.set(PROVIDER, scripted);
    const messages = await container
      .get(Executor)
      .call({ _tool: 'summarize', text: 'long text' }, []);
    expect(resultOf(messages).output).toEqual({ summary: 'short' });
    expect(scripted.requests).toHaveLength(1);
  });

  it('plain { name: fn } activities with the same-name convention (R-TOOL-2) and plain ToolSchemas', async () => {
    @Tool()
    class Add {
      @IsInt()
      a!: number;
      @IsInt()
      b!: number;
    }
    const container = track(
      createContainer({
        tools: [
          Add,
          {
            type: 'object',
            properties: { _tool: { const: 'ping' }, _activity: { const: 'pong' } },
          },
        ],
        activities: [
          { add: (params) => (params.a as number) + (params.b as number), pong: () => 'pong!' },
        ],
        provider: new ScriptedProvider([]),
      }),
    );
    const executor = container.get(Executor);
    expect(resultOf(await executor.call({ _tool: 'add', a: 2, b: 3 }, [])).output).toBe(5);
    expect(resultOf(await executor.call({ _tool: 'ping' }, [])).output).toBe('pong!');
  });
});

describe('more wiring', () => {
  it('@Activity() on a method defaults to the method name; a plain class without dependencies needs no @Service', async () => {
    class Clock {
      @Activity()
      now(): string {
        return 'noon';
      }
    }
    @Tool()
    class Now {}
    const container = track(
      createContainer({ tools: [Now], activities: [Clock], provider: new ScriptedProvider([]) }),
    );
    expect(Object.keys(container.get(ACTIVITIES))).toEqual(['now']);
    expect(resultOf(await container.get(Executor).call({ _tool: 'now' }, [])).output).toBe('noon');
  });

  it('the Activity service itself can be replaced with container.set(); a replacement without the method fails the call with a clear error', async () => {
    const { WeatherReport, WeatherService } = declareWeather();
    const config = {
      tools: [WeatherReport],
      activities: [WeatherService],
      provider: new ScriptedProvider([]),
    };
    const replaced = track(createContainer(config));
    replaced.set(WeatherService, {
      fetch: () => ({ city: 'fake', temperature: 0, source: 'fake' }),
    } as never);
    const ok = resultOf(
      await replaced.get(Executor).call({ _tool: 'weatherReport', city: 'Rome' }, []),
    );
    expect(ok.output).toEqual({ city: 'fake', temperature: 0, source: 'fake' });

    const broken = track(createContainer(config));
    broken.set(WeatherService, {} as never);
    const failed = resultOf(
      await broken.get(Executor).call({ _tool: 'weatherReport', city: 'Rome' }, []),
    );
    expect(failed.error?.code).toBe('CONTAINER_CONFIGURATION');
    expect(failed.error?.message).toContain(
      'WeatherService.fetch is not a method of the resolved service instance',
    );
  });

  it('MODULE_RUNNER, when set before the first get, runs the module Calls of the container Executor', async () => {
    @Tool()
    @Module('anonymous')
    @Output({ type: 'object', properties: { summary: { type: 'string' } }, required: ['summary'] })
    class Summarize {
      @IsString()
      text!: string;
    }
    const seen: unknown[] = [];
    const container = track(
      createContainer({ tools: [Summarize], provider: new ScriptedProvider([]) }),
    );
    container.set(MODULE_RUNNER, {
      run: async (input) => {
        seen.push(input.schema);
        return { summary: 'from the runner' };
      },
    });
    const messages = await container.get(Executor).call({ _tool: 'summarize', text: 'x' }, []);
    expect(resultOf(messages).output).toEqual({ summary: 'from the runner' });
    expect(seen).toHaveLength(1);
  });
});

describe('typed calls on a hand-written @Tool class with static toolName', () => {
  it('executor.call(Class, params) returns the output and throws the typed error on invalid params', async () => {
    @Tool()
    class Multiply {
      static readonly toolName = 'multiply';
      declare static readonly __ideactTypes?: { input: { a: number; b: number }; output: number };
      @IsInt()
      a!: number;
      @IsInt()
      @Min(0)
      b!: number;
    }
    const container = track(
      createContainer({
        tools: [Multiply],
        activities: [{ multiply: (params) => (params.a as number) * (params.b as number) }],
        provider: new ScriptedProvider([]),
      }),
    );
    const executor = container.get(Executor);
    const product: number = await executor.call(Multiply, { a: 6, b: 7 });
    expect(product).toBe(42);
    await expect(
      executor.call(Multiply, { a: 6, b: 7, c: 1 } as { a: number; b: number }),
    ).rejects.toThrow(ParamsValidationError);
  });
});

describe('params of explicit calls on class-declared tools', () => {
  @ValidatorConstraint({ name: 'isEven' })
  class IsEven implements ValidatorConstraintInterface {
    validate(value: unknown): boolean {
      return typeof value === 'number' && value % 2 === 0;
    }
    defaultMessage(): string {
      return '$property must be even';
    }
  }

  it('fail with a PARAMS_VALIDATION result listing each failing property and constraint; the Activity does not run', async () => {
    let runs = 0;
    @Tool()
    class Pairs {
      @IsInt()
      @Validate(IsEven)
      count!: number;
    }
    const container = track(
      createContainer({
        tools: [Pairs],
        activities: [{ pairs: () => (runs += 1) }],
        provider: new ScriptedProvider([]),
      }),
    );
    const messages = await container
      .get(Executor)
      .call({ _tool: 'pairs', count: 3, extra: true }, []);
    const result = resultOf(messages);
    expect(result.output).toBeUndefined();
    expect(result.error?.code).toBe('PARAMS_VALIDATION');
    expect(result.error?.message).toContain('Invalid params for tool "pairs":');
    expect(result.error?.message).toContain('- count: count must be even');
    expect(result.error?.message).toContain('- extra: property extra should not exist');
    expect(runs).toBe(0);

    const ok = resultOf(await container.get(Executor).call({ _tool: 'pairs', count: 4 }, []));
    expect(ok.error).toBeUndefined();
    expect(runs).toBe(1);
  });
});

describe('misuse fails at container start with potential solutions', () => {
  function startFailure(start: () => unknown): ContainerConfigurationError {
    try {
      track(start() as ContainerInstance);
    } catch (error) {
      expect(ContainerConfigurationError.isInstance(error)).toBe(true);
      const typed = error as ContainerConfigurationError;
      expect(typed.fault).toBe('configuration');
      expect(typed.message).toContain('\nPotential solutions:\n- ');
      return typed;
    }
    throw new Error('expected a ContainerConfigurationError');
  }

  it('R-TOOL-5 two tools with one name: the later definition wins (was a ContainerConfigurationError)', () => {
    @Tool({ name: 'weather' })
    @Activity('')
    class WeatherA {}
    const later: ToolSchema = {
      type: 'object',
      description: 'the later weather',
      properties: { _tool: { const: 'weather' }, _output: { type: 'string' } },
    };
    const container = createContainer({
      tools: [WeatherA, later],
      provider: new OfflineProvider(),
    });
    try {
      expect(container.get(TOOLS)).toEqual([later]);
    } finally {
      disposeContainer(container);
    }
  });

  it('@Activity naming an activity nobody registered lists the registered ones and the service that declares it', () => {
    const { WeatherReport, WeatherService } = declareWeather();
    const error = startFailure(() =>
      createContainer({ tools: [WeatherReport], activities: [{ now: () => 1, today: () => 2 }] }),
    );
    expect(error.message).toContain(
      'tool "weatherReport" (tools[0] (class WeatherReport)) names the Activity "fetchWeather", which nobody registered (registered: "now", "today")',
    );
    expect(error.message).toContain(
      `Add ${WeatherService.name} (it declares @Activity('fetchWeather')) to \`activities\``,
    );
  });

  it('a class without @Tool passed as a tool (an activity service gets a hint to move)', () => {
    class Plain {}
    expect(startFailure(() => createContainer({ tools: [Plain] })).message).toContain(
      'tools[0] (class Plain) is not decorated with @Tool()',
    );
    const { WeatherService } = declareWeather();
    expect(startFailure(() => createContainer({ tools: [WeatherService] })).message).toContain(
      'WeatherService has @Activity methods: move it to `activities`',
    );
    expect(
      startFailure(() => createContainer({ tools: [{ type: 'object' } as never] })).message,
    ).toContain('tools[0] (ToolSchema) is neither a @Tool class nor a ToolSchema');
  });

  it('activities: duplicates, classes without @Activity, non-services with dependencies, non-functions', () => {
    const { WeatherService, WeatherApi } = declareWeather();
    expect(
      startFailure(() =>
        createContainer({ tools: [], activities: [WeatherService, { fetchWeather: () => 1 }] }),
      ).message,
    ).toContain(
      'two Activities are named "fetchWeather": activities[0] (WeatherService.fetch) and activities[1].fetchWeather',
    );
    expect(
      startFailure(() => createContainer({ tools: [], activities: [WeatherApi] })).message,
    ).toContain('activities[0] (class WeatherApi) has no method decorated with @Activity()');
    class NotAService {
      constructor(readonly api: unknown) {}
      @Activity()
      run(): void {}
    }
    expect(
      startFailure(() => createContainer({ tools: [], activities: [NotAService] })).message,
    ).toContain('Decorate NotAService with @Service() from typedi');
    expect(
      startFailure(() => createContainer({ tools: [], activities: [{ broken: 42 as never }] }))
        .message,
    ).toContain('activities[0].broken is number, not a function');
  });

  it('a class-declared tool with no way to run', () => {
    @Tool()
    class Orphan {
      @IsString()
      topic!: string;
    }
    expect(startFailure(() => createContainer({ tools: [Orphan] })).message).toContain(
      'tool "orphan" (tools[0] (class Orphan)) has no way to run',
    );
  });

  it('a failed start leaves no container registered in typedi', () => {
    const { Container } = jest.requireActual<typeof import('typedi')>('typedi');
    const before = (Container as unknown as { instances: unknown[] }).instances.length;
    class Plain {}
    startFailure(() => createContainer({ tools: [], activities: [Plain] }));
    expect((Container as unknown as { instances: unknown[] }).instances.length).toBe(before);
  });
});
