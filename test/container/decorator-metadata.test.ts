import { transformSync } from 'esbuild';
import {
  createAgent,
  createContainer,
  DecoratorError,
  disposeContainer,
  Executor,
  getMetadataStorage,
  OfflineProvider,
  type ContainerInstance,
  type Message,
} from 'ideact';
import * as ts from 'typescript';

/**
 * Issue 14 item 1: a program compiled without `emitDecoratorMetadata` (esbuild, tsx, swc without the
 * option) must fail when the container starts, naming the class and the compiler fix — never run with
 * dropped types or `undefined` dependencies. The fixture is compiled by esbuild itself.
 */
const FIXTURE = `
import { IsString } from 'class-validator';
import { Activity, Service, Tool } from 'ideact';

@Tool({ description: 'Current weather of a city' })
@Activity('fetchWeather')
export class WeatherReport {
  @IsString()
  city!: string;
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
`;

interface Fixture {
  WeatherReport: abstract new () => object;
  WeatherService: abstract new (...args: never[]) => object;
}

/** Evaluates CommonJS output with this test's `require`, so `ideact` is the package under test. */
function load(code: string): Fixture {
  const module = { exports: {} as Fixture };
  new Function('require', 'module', 'exports', code)(require, module, module.exports);
  return module.exports;
}

/** Compiled like `tsx` / `esbuild` do: legacy decorators, no decorator metadata. */
function compiledByEsbuild(): Fixture {
  const { code } = transformSync(FIXTURE, {
    loader: 'ts',
    format: 'cjs',
    target: 'es2022',
    tsconfigRaw: { compilerOptions: { experimentalDecorators: true } },
  });
  return load(code);
}

/** Compiled like `tsc` / `ts-node` do with the flags the docs ask for. */
function compiledByTsc(): Fixture {
  const { outputText } = ts.transpileModule(FIXTURE, {
    compilerOptions: {
      module: ts.ModuleKind.CommonJS,
      target: ts.ScriptTarget.ES2022,
      experimentalDecorators: true,
      emitDecoratorMetadata: true,
    },
  });
  return load(outputText);
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

/** The message names both fixes: the tsconfig flags and what to use instead of esbuild/tsx. */
function expectCompilerHint(error: DecoratorError): void {
  expect(error.message).toContain('"emitDecoratorMetadata": true');
  expect(error.message).toContain('"experimentalDecorators": true');
  expect(error.message).toContain('esbuild and tsx');
  expect(error.message).toContain('jsc.transform.decoratorMetadata: true');
}

const provider = new OfflineProvider();
const containers: ContainerInstance[] = [];
beforeEach(() => getMetadataStorage().reset());
afterEach(() => {
  for (const container of containers.splice(0)) disposeContainer(container);
});

describe('a program compiled without emitDecoratorMetadata fails at container start (issue 14 item 1)', () => {
  it('createContainer with an esbuild-compiled @Tool class: DecoratorError naming the class and the compiler fix', () => {
    const { WeatherReport } = compiledByEsbuild();
    const error = decoratorError(() =>
      createContainer({
        tools: [WeatherReport],
        activities: [{ fetchWeather: () => ({}) }],
        provider,
      }),
    );
    expect(error.target).toBe('WeatherReport');
    expect(error.message).toContain('WeatherReport.city');
    expect(error.message).toContain('compiled without decorator metadata');
    expectCompilerHint(error);
  });

  it('createAgent and new Executor fail the same way', () => {
    const { WeatherReport } = compiledByEsbuild();
    const config = { tools: [WeatherReport], activities: [{ fetchWeather: () => ({}) }], provider };
    expectCompilerHint(decoratorError(() => createAgent(config)));
    const error = decoratorError(() => new Executor(config));
    expect(error.message).toContain('WeatherReport.city');
  });

  it('an esbuild-compiled @Service with constructor dependencies: DecoratorError instead of injecting the wrong values', () => {
    const { WeatherService } = compiledByEsbuild();
    const error = decoratorError(() =>
      createContainer({ tools: [], activities: [WeatherService], provider }),
    );
    expect(error.decorator).toBe('@Service');
    expect(error.target).toBe('WeatherService');
    expect(error.message).toContain('takes 1 constructor parameter(s)');
    expectCompilerHint(error);
  });

  it('the same source compiled with emitDecoratorMetadata starts and injects the dependency', async () => {
    const { WeatherReport, WeatherService } = compiledByTsc();
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
