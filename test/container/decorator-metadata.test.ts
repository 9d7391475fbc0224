import {
  createAgent,
  createContainer,
  DecoratorError,
  disposeContainer,
  Executor,
  getMetadataStorage,
  OfflineProvider,
  toolSchema,
  type ContainerInstance,
  type Message,
} from 'ideact';
import { compileWith, loadCommonJs, type Toolchain } from '../support/toolchains';

/**
 * Issue 29 item 1 (formerly issue 14 item 1): a program compiled without decorator metadata (esbuild,
 * tsx, SWC without the option, tsc without `emitDecoratorMetadata`) runs whenever its decorators say
 * every param's type and every constructor dependency; where they do not, container start fails
 * with a DecoratorError naming the class, the property or constructor position, and the decorator to
 * add — never with dropped types or `undefined` dependencies.
 */
const FIXTURE = `
import { Type } from 'class-transformer';
import { IsOptional, IsString, Validate, ValidateNested, ValidatorConstraint } from 'class-validator';
import { Activity, Describe, Inject, Service, Tool } from 'ideact';

@ValidatorConstraint({ name: 'cityName' })
class CityName {
  validate(value: unknown) {
    return typeof value === 'string' && /^[A-Z]/.test(value);
  }
}

export class Place {
  @IsString() name!: string;
}

@Tool({ description: 'Current weather of a city' })
@Activity('fetchWeather')
export class WeatherReport {
  @IsString()
  city!: string;
}

@Tool()
@Activity('fetchWeather')
export class DescribedOnly {
  @Describe('City name')
  city!: string;
}

@Tool()
@Activity('fetchWeather')
export class OptionalOnly {
  @IsString() city!: string;
  @IsOptional() days?: number;
}

@Tool()
@Activity('fetchWeather')
export class CustomOnly {
  @Validate(CityName) city!: string;
}

@Tool()
@Activity('fetchWeather')
export class NestedWithoutType {
  @ValidateNested() place!: Place;
}

@Tool()
@Activity('fetchWeather')
export class TypedByTransformer {
  @Describe('How many days') @Type(() => Number) days!: number;
}

@Service()
export class WeatherApi {
  temperatureIn(city: string): number {
    return city.length;
  }
}

@Service()
export class WeatherService {
  constructor(private readonly api: WeatherApi) {}

  @Activity('fetchWeather')
  fetch(params: WeatherReport) {
    return { city: params.city, temperature: this.api.temperatureIn(params.city) };
  }
}

@Service()
export class HalfInjected {
  constructor(
    @Inject(() => WeatherApi) private readonly api: WeatherApi,
    private readonly unit: string,
  ) {}

  @Activity('fetchWeather')
  fetch(params: WeatherReport) {
    return { city: params.city, temperature: this.api.temperatureIn(params.city), unit: this.unit };
  }
}

@Service()
export class PropertyInjected {
  @Inject(() => WeatherApi) api!: WeatherApi;

  @Activity('fetchWeather')
  fetch(params: WeatherReport) {
    return { city: params.city, temperature: this.api.temperatureIn(params.city) };
  }
}
`;

type AnyClass = abstract new (...args: never[]) => object;
type Fixture = Record<
  | 'WeatherReport'
  | 'DescribedOnly'
  | 'OptionalOnly'
  | 'CustomOnly'
  | 'NestedWithoutType'
  | 'TypedByTransformer'
  | 'WeatherService'
  | 'HalfInjected'
  | 'PropertyInjected',
  AnyClass
>;

function compiled(toolchain: Toolchain): Fixture {
  return loadCommonJs<Fixture>(compileWith(toolchain, FIXTURE, 'fixture.ts'), require);
}

function decoratorError(start: () => unknown): DecoratorError {
  try {
    start();
  } catch (error) {
    expect(DecoratorError.isInstance(error)).toBe(true);
    const typed = error as DecoratorError;
    expect(typed.code).toBe('DECORATOR_MISUSE');
    return typed;
  }
  throw new Error('expected a DecoratorError');
}

const provider = new OfflineProvider();
const containers: ContainerInstance[] = [];
const fetchWeather = { fetchWeather: () => ({}) };
beforeEach(() => getMetadataStorage().reset());
afterEach(() => {
  for (const container of containers.splice(0)) disposeContainer(container);
});

describe('params without decorator metadata (issue 29 item 1)', () => {
  it.each(['esbuild', 'swc', 'tsc'] as const)(
    'a param no decorator types (only @Describe), compiled by %s: DecoratorError naming the class, the property and the decorator to add',
    (toolchain) => {
      const { DescribedOnly } = compiled(toolchain);
      const error = decoratorError(() =>
        createContainer({ tools: [DescribedOnly], activities: [fetchWeather], provider }),
      );
      expect(error.decorator).toBe('@Tool');
      expect(error.target).toBe('DescribedOnly');
      expect(error.message).toContain(
        'no decorator states the type of the param DescribedOnly.city',
      );
      expect(error.message).toContain(
        "Add @IsString() or @Param({ type: 'string' }) to DescribedOnly.city if it is a string",
      );
      // The compiler flags come last, as one alternative among the fixes.
      expect(error.solutions.at(-1)).toContain('"emitDecoratorMetadata": true');
    },
  );

  it('the same class compiled with emitDecoratorMetadata is typed from its TypeScript type, as before', () => {
    const { DescribedOnly } = compiled('tsc-metadata');
    expect(toolSchema(DescribedOnly).properties.city).toEqual({
      type: 'string',
      description: 'City name',
    });
  });

  it('@IsOptional() alone states no type: the error names the optional property', () => {
    const { OptionalOnly } = compiled('esbuild');
    const error = decoratorError(() => toolSchema(OptionalOnly));
    expect(error.message).toContain('OptionalOnly.days');
    expect(error.message).toContain('@Param({ type:');
  });

  it('a custom validator says no type: the error says so and names the property', () => {
    const { CustomOnly } = compiled('esbuild');
    const error = decoratorError(() => toolSchema(CustomOnly));
    expect(error.message).toContain(
      'no decorator states the type of the param CustomOnly.city (its custom validators do not say it)',
    );
  });

  it('@ValidateNested() without @Type: the error asks for @Type(() => ItsClass) on that property', () => {
    const { NestedWithoutType } = compiled('swc');
    const error = decoratorError(() =>
      createAgent({ tools: [NestedWithoutType], activities: [fetchWeather], provider }),
    );
    expect(error.target).toBe('NestedWithoutType');
    expect(error.message).toContain('NestedWithoutType.place has @ValidateNested() but no @Type');
    expect(error.message).toContain('Add @Type(() => ItsClass) from class-transformer to place');
  });

  it("class-transformer's @Type(() => Number) states the type: the schema equals the metadata build's", () => {
    const withMetadata = toolSchema(compiled('tsc-metadata').TypedByTransformer);
    expect(withMetadata.properties.days).toEqual({ type: 'number', description: 'How many days' });
    expect(toolSchema(compiled('esbuild').TypedByTransformer)).toEqual(withMetadata);
  });

  it('new Executor({ tools }) checks the same way', () => {
    const { DescribedOnly } = compiled('esbuild');
    const error = decoratorError(
      () => new Executor({ tools: [DescribedOnly], activities: [fetchWeather], provider }),
    );
    expect(error.message).toContain('DescribedOnly.city');
  });
});

describe('constructor injection without decorator metadata (issue 29 item 1)', () => {
  it('a constructor parameter with no @Inject and no metadata: DecoratorError naming the class and the position', () => {
    const { WeatherService } = compiled('esbuild');
    const error = decoratorError(() =>
      createContainer({ tools: [], activities: [WeatherService], provider }),
    );
    expect(error.decorator).toBe('@Service');
    expect(error.target).toBe('WeatherService');
    expect(error.message).toContain(
      'constructor parameter 1 of 1 (index 0) of WeatherService has no injection token',
    );
    expect(error.message).toContain('Add @Inject(() => TheService)');
  });

  it('only the parameter without @Inject is named (the second one here)', () => {
    const { HalfInjected } = compiled('swc');
    const error = decoratorError(() =>
      createContainer({ tools: [], activities: [HalfInjected], provider }),
    );
    expect(error.message).toContain('constructor parameter 2 of 2 (index 1) of HalfInjected');
  });

  it('property injection with @Inject(() => Service) works without metadata', async () => {
    const { WeatherReport, PropertyInjected } = compiled('esbuild');
    const container = createContainer({
      tools: [WeatherReport],
      activities: [PropertyInjected],
      provider,
    });
    containers.push(container);
    const [result] = (await container
      .get(Executor)
      .call({ _tool: 'weatherReport', city: 'Paris' }, [])) as Message[];
    expect(result).toMatchObject({ output: { city: 'Paris', temperature: 5 } });
  });

  it('the same source compiled with emitDecoratorMetadata injects the undecorated parameter by its type, as before', async () => {
    const { WeatherReport, WeatherService } = compiled('tsc-metadata');
    const container = createContainer({
      tools: [WeatherReport],
      activities: [WeatherService],
      provider,
    });
    containers.push(container);
    const [result] = (await container
      .get(Executor)
      .call({ _tool: 'weatherReport', city: 'Paris' }, [])) as Message[];
    expect(result).toMatchObject({ output: { city: 'Paris', temperature: 5 } });
  });
});
