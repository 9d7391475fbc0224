import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import {
  createContainer,
  disposeContainer,
  createParamsTransformer,
  Executor,
  getMetadataStorage,
  isToolClass,
  ParamsValidationError,
  toolSchema,
  type Message,
  type ServiceClass,
  type ToolClass,
} from 'ideact';
import { ScriptedProvider } from 'ideact/testing';
import {
  callResults,
  invalidTripParams,
  runTrip,
  tripParams,
  tripScript,
} from '../../examples/trip/run-trip';
import { REPO_ROOT } from '../support/compile-typescript';
import { compileWith, loadCommonJs, TOOLCHAINS, type Toolchain } from '../support/toolchains';

/**
 * Issue 29 item 1: the same Tool classes — params typed only by class-validator decorators (and
 * `@Param`), nested classes with `@Type`, an Activity service with `@Inject(() => …)` and a typedi
 * Token — compiled four ways give the same tool schema, the same validation and the same run. Only
 * the first way records decorator metadata; the others (tsc without the flag, esbuild as tsx runs it,
 * SWC without `decoratorMetadata`) leave ideact the decorators alone.
 */
const TOOLS_FILE = path.join(REPO_ROOT, 'examples', 'trip', 'tools.ts');
const SOURCE = readFileSync(TOOLS_FILE, 'utf8');

interface TripModule {
  PlanTrip: ToolClass;
  Coordinates: abstract new () => object;
  TripActivities: ServiceClass;
}

/** The example's classes compiled by `toolchain`, loaded against the package under test. */
function compiledBy(toolchain: Toolchain): TripModule {
  return loadCommonJs<TripModule>(compileWith(toolchain, SOURCE, 'tools.ts'), require);
}

const builds = new Map<Toolchain, TripModule>();
beforeAll(() => {
  getMetadataStorage().reset();
  for (const toolchain of TOOLCHAINS) builds.set(toolchain, compiledBy(toolchain));
});

function build(toolchain: Toolchain): TripModule {
  const found = builds.get(toolchain);
  if (found === undefined) throw new Error(`no ${toolchain} build`);
  return found;
}

const WITHOUT_METADATA = TOOLCHAINS.filter((toolchain) => toolchain !== 'tsc-metadata');

describe('the same Tool classes compiled by tsc (with and without metadata), esbuild and SWC (issue 29 item 1)', () => {
  it('only the tsc build with emitDecoratorMetadata records design types (the other three really lack them)', () => {
    const designType = (toolchain: Toolchain): unknown =>
      Reflect.getMetadata('design:type', build(toolchain).PlanTrip.prototype, 'traveller');
    const paramTypes = (toolchain: Toolchain): unknown =>
      Reflect.getOwnMetadata('design:paramtypes', build(toolchain).TripActivities);
    expect(designType('tsc-metadata')).toBe(String);
    expect(paramTypes('tsc-metadata')).toHaveLength(2);
    for (const toolchain of WITHOUT_METADATA) {
      expect([toolchain, designType(toolchain)]).toEqual([toolchain, undefined]);
      expect([toolchain, paramTypes(toolchain)]).toEqual([toolchain, undefined]);
    }
  });

  it.each(WITHOUT_METADATA)(
    'toolSchema of the %s build deep-equals the tsc-with-metadata build',
    (toolchain) => {
      expect(toolSchema(build(toolchain).PlanTrip)).toEqual(
        toolSchema(build('tsc-metadata').PlanTrip),
      );
    },
  );

  it('that schema types every param from its decorators: integer, enum, array items, nested objects, @Param', () => {
    const properties = toolSchema(build('esbuild').PlanTrip).properties;
    expect(properties.days).toEqual({ type: 'integer', maximum: 14, minimum: 1 });
    expect(properties.mode).toEqual({ type: 'string', enum: ['train', 'car', 'bike'] });
    expect(properties.pace).toEqual({ type: 'string', enum: ['relaxed', 'brisk'] });
    expect(properties.interests).toEqual({ type: 'array', items: { type: 'string' } });
    expect(properties.start).toMatchObject({
      type: 'object',
      required: ['lat', 'lon'],
      additionalProperties: false,
    });
    expect(properties.stops).toMatchObject({
      type: 'array',
      minItems: 1,
      items: { type: 'object', required: ['name', 'at'], properties: { at: properties.start } },
    });
    expect(properties.budget).toEqual({ type: 'integer', minimum: 0 });
    expect(properties.departure).toEqual({
      type: 'string',
      description: 'Day of departure, YYYY-MM-DD',
      pattern: '^\\d{4}-\\d{2}-\\d{2}$',
    });
  });

  it('an agent run (scripted model, the @Inject-ed services) gives the same Call results and output for every build', async () => {
    const runs = new Map<Toolchain, { results: unknown[]; output: unknown }>();
    for (const toolchain of TOOLCHAINS) {
      const { PlanTrip, TripActivities } = build(toolchain);
      const provider = new ScriptedProvider(tripScript());
      const result = await runTrip({ tools: [PlanTrip], activities: [TripActivities], provider });
      provider.assertComplete();
      runs.set(toolchain, { results: callResults(result), output: result.output });
    }
    const reference = runs.get('tsc-metadata');
    // The Activity ran with both injected services and with class instances built from the JSON.
    expect(reference?.results).toEqual([
      {
        type: 'result',
        call: { _tool: 'planTrip', ...tripParams() },
        output: {
          traveller: 'Ada',
          departure: '2026-06-01',
          legs: [
            { to: 'Bergen', distance: '305 km' },
            { to: 'Trondheim', distance: '430 km' },
          ],
          total: '735 km',
          perDay: '184 km',
          instances: true,
        },
      },
    ]);
    for (const toolchain of WITHOUT_METADATA) {
      expect([toolchain, runs.get(toolchain)]).toEqual([toolchain, reference]);
    }
  });

  it('an explicit call with invalid params fails the same way for every build', async () => {
    const errors = new Map<Toolchain, unknown>();
    for (const toolchain of TOOLCHAINS) {
      const { PlanTrip, TripActivities } = build(toolchain);
      const container = createContainer({
        tools: [PlanTrip],
        activities: [TripActivities],
        provider: new ScriptedProvider([]),
      });
      try {
        const [result] = (await container
          .get(Executor)
          .call({ _tool: 'planTrip', ...invalidTripParams() }, [])) as Message[];
        errors.set(toolchain, (result as { error?: unknown }).error);
      } finally {
        disposeContainer(container);
      }
    }
    const reference = errors.get('tsc-metadata') as { code: string; message: string };
    expect(reference.code).toBe('PARAMS_VALIDATION');
    expect(reference.message).toContain('start.lat: must be <= 90');
    for (const toolchain of WITHOUT_METADATA) {
      expect([toolchain, errors.get(toolchain)]).toEqual([toolchain, reference]);
    }
  });

  it('class-validator (the params transformer) checks the same rules for every build: nested, @Param schema, unknown params', async () => {
    const issues = new Map<Toolchain, unknown>();
    for (const toolchain of TOOLCHAINS) {
      const transform = createParamsTransformer(build(toolchain).PlanTrip, 'planTrip');
      const error = await Promise.resolve(transform(invalidTripParams())).then(
        () => undefined,
        (thrown: unknown) => thrown,
      );
      expect(ParamsValidationError.isInstance(error)).toBe(true);
      issues.set(toolchain, (error as ParamsValidationError).issues);
    }
    const reference = issues.get('tsc-metadata') as Array<{ path: string; messages: string[] }>;
    expect(reference.map((issue) => issue.path).sort()).toEqual(
      ['days', 'departure', 'hotel', 'start.lat', 'stops.0.at.lon'].sort(),
    );
    expect(reference.find((issue) => issue.path === 'departure')?.messages).toEqual([
      'departure does not match its @Param schema: must match pattern "^\\d{4}-\\d{2}-\\d{2}$"',
    ]);
    for (const toolchain of WITHOUT_METADATA) {
      expect([toolchain, issues.get(toolchain)]).toEqual([toolchain, reference]);
    }
  });
});

describe('classes written by ideact codegen need no decorator metadata either (issue 29 item 1)', () => {
  const FIXTURES = path.join(REPO_ROOT, 'test', 'codegen', 'fixtures');
  const GENERATED = readdirSync(FIXTURES).filter((name) => name.endsWith('.ts'));

  it.each(GENERATED)(
    '%s compiled by esbuild and SWC gives the schemas of its tsc-with-metadata build',
    (file) => {
      const source = readFileSync(path.join(FIXTURES, file), 'utf8');
      const load = (toolchain: Toolchain): Record<string, unknown> =>
        loadCommonJs(compileWith(toolchain, source, file), require);
      const reference = load('tsc-metadata');
      const tools = Object.keys(reference).filter((name) => isToolClass(reference[name]));
      expect(tools.length).toBeGreaterThan(0);
      for (const toolchain of ['esbuild', 'swc'] as const) {
        const build = load(toolchain);
        for (const name of tools) {
          expect([toolchain, name, toolSchema(build[name] as ToolClass)]).toEqual([
            toolchain,
            name,
            toolSchema(reference[name] as ToolClass),
          ]);
        }
      }
    },
  );
});

/** Bun's binary, from the `bun` dev dependency (its platform package comes from the npm registry). */
const BUN = path.join(REPO_ROOT, 'node_modules', 'bun', 'bin', 'bun.exe');

describe.each([
  ['tsx', '`node --import tsx examples/trip/main.ts`', process.execPath, ['--import', 'tsx']],
  ['Bun', '`bun examples/trip/main.ts`', BUN, []],
])('%s runs the example (issue 29 item 1)', (_runner, command, executable, runnerArgs) => {
  it(`${command} prints the same schema and Call results as the tsc build`, () => {
    const child = spawnSync(executable, [...runnerArgs, path.join('examples', 'trip', 'main.ts')], {
      cwd: REPO_ROOT,
      encoding: 'utf8',
      env: { ...process.env, OPENAI_API_KEY: '', OPENAI_BASE_URL: '' },
      timeout: 60_000,
    });
    expect(child.error).toBeUndefined();
    expect(child.stderr).toBe('');
    expect(child.status).toBe(0);
    const line = (label: string): unknown => {
      const found = child.stdout.split('\n').find((entry) => entry.startsWith(`${label}: `));
      if (found === undefined) throw new Error(`no "${label}:" line in:\n${child.stdout}`);
      return JSON.parse(found.slice(label.length + 2)) as unknown;
    };
    expect(line('tool schema')).toEqual(toolSchema(build('tsc-metadata').PlanTrip));
    expect(line('call results')).toEqual([
      expect.objectContaining({
        output: expect.objectContaining({ total: '735 km', instances: true }),
      }),
    ]);
    expect(line('output')).toEqual({ summary: 'Oslo → Bergen → Trondheim by train in 4 days.' });
  });
});
