import { Type } from 'class-transformer';
import { IsObject, IsOptional, IsString, ValidateNested } from 'class-validator';
import {
  Activity,
  createContainer,
  createParamsTransformer,
  disposeContainer,
  Executor,
  getMetadataStorage,
  OfflineProvider,
  ParamsValidationError,
  Tool,
  type ContainerInstance,
  type Message,
  type ResultMessage,
} from 'ideact';

/**
 * Issue 14 item 13: a `constructor` key inside an object param crashed class-transformer and a nested
 * `__proto__` key was silently dropped. Plain-object params are data: the Activity receives every key.
 * Where a class instance is built, such keys are unknown params, reported with their path.
 */
const provider = new OfflineProvider();
const containers: ContainerInstance[] = [];
afterEach(() => {
  for (const container of containers.splice(0)) disposeContainer(container);
});

class Place {
  @IsString()
  name!: string;
  @IsOptional()
  @IsObject()
  tags?: Record<string, unknown>;
}

class Trip {
  @ValidateNested()
  @Type(() => Place)
  place!: Place;
}

let received: Array<Record<string, unknown>> = [];

function executor(): Executor {
  getMetadataStorage().reset();
  @Tool()
  @Activity('store')
  class Store {
    @IsObject()
    record!: Record<string, unknown>;
    @IsOptional()
    @ValidateNested()
    @Type(() => Place)
    place?: Place;
  }
  received = [];
  const container = createContainer({
    tools: [Store],
    activities: [{ store: (params) => void received.push(params) }],
    provider,
  });
  containers.push(container);
  return container.get(Executor);
}

/** Parses JSON as the model's reply is parsed: `__proto__` becomes an own key. */
async function call(executor: Executor, json: string): Promise<ResultMessage> {
  const [result] = (await executor.call(JSON.parse(json) as never, [])) as Message[];
  return result as ResultMessage;
}

describe('constructor and __proto__ keys in object params (issue 14 item 13)', () => {
  it('a "constructor" key inside a plain-object param reaches the Activity as data (no crash)', async () => {
    const result = await call(
      executor(),
      '{"_tool":"store","record":{"constructor":"Point","x":1}}',
    );
    expect(result.error).toBeUndefined();
    expect(received).toHaveLength(1);
    expect(received[0]!.record).toEqual({ constructor: 'Point', x: 1 });
    expect(Object.keys(received[0]!.record as object)).toEqual(['constructor', 'x']);
  });

  it('a nested "__proto__" key is kept as an own key, not dropped or turned into a prototype', async () => {
    const result = await call(
      executor(),
      '{"_tool":"store","record":{"meta":{"__proto__":{"admin":true},"v":2}},"place":{"name":"Oslo","tags":{"__proto__":{"x":1}}}}',
    );
    expect(result.error).toBeUndefined();
    const record = received[0]!.record as { meta: Record<string, unknown> };
    expect(Object.keys(record.meta)).toEqual(['__proto__', 'v']);
    expect(Object.getOwnPropertyDescriptor(record.meta, '__proto__')?.value).toEqual({
      admin: true,
    });
    expect(Object.getPrototypeOf(record.meta)).toBe(Object.prototype);
    const place = received[0]!.place as Place;
    expect(place).toBeInstanceOf(Place);
    expect(Object.keys(place.tags as object)).toEqual(['__proto__']);
  });

  it('such keys where a class instance is built are unknown params: PARAMS_VALIDATION naming the tool and the path', async () => {
    // The top level is the tool class (its schema allows extra keys, so this reaches the transformer).
    const result = await call(executor(), '{"_tool":"store","record":{},"constructor":"x"}');
    expect(result.error?.code).toBe('PARAMS_VALIDATION');
    expect(result.error?.message).toContain('Invalid params for tool "store"');
    expect(result.error?.message).toContain('- constructor: property constructor should not exist');
    expect(received).toHaveLength(0);

    // Inside a nested class value (the transformer alone: the schema already rejects extra keys there).
    const transformer = createParamsTransformer(Trip, 'trip');
    const error: unknown = await Promise.resolve(
      transformer(
        JSON.parse('{"place":{"name":"Oslo","__proto__":{"admin":true}}}') as Record<
          string,
          unknown
        >,
      ),
    ).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(ParamsValidationError.isInstance(error)).toBe(true);
    expect((error as ParamsValidationError).issues).toEqual([
      {
        path: 'place.__proto__',
        messages: ['property __proto__ should not exist'],
        message: 'property __proto__ should not exist',
      },
    ]);
  });
});
