import { expectTypeOf } from 'expect-type';
import {
  Executor,
  InvalidParamsError,
  type ActivityContext,
  type Message,
  type ResultMessage,
  type TypedToolReference,
} from 'ideact';
import { ScriptedProvider } from 'ideact/testing';
import { makeModuleRoot, removeRoot, summarizeIdea, tool } from './executor-fixtures';

let root: string;
beforeAll(async () => {
  root = await makeModuleRoot({ 'summarize.json': summarizeIdea });
});
afterAll(() => removeRoot(root));

const weather = tool(
  'weather',
  {
    city: { type: 'string' },
    _output: {
      type: 'object',
      properties: { temperature: { type: 'number' } },
      required: ['temperature'],
    },
  },
  ['city'],
);
const add = tool('add', { a: { type: 'number' }, b: { type: 'number' } }, ['a', 'b']);
const summarize = tool('summarize', {
  text: { type: 'string' },
  _module: { const: 'summarize.json' },
});
const poem = tool('poem', {
  topic: { type: 'string' },
  _module: { const: 'anonymous' },
  _output: { type: 'object', properties: { poem: { type: 'string' } }, required: ['poem'] },
});
const countImported = tool('countImported', {
  _module: { const: 'anonymous' },
  _activity: { const: 'count' },
  _imports: { const: ['state'] },
});

function result(messages: Message[]): ResultMessage {
  const first = messages[0];
  if (first?.type !== 'result') throw new Error('expected a result message first');
  return first;
}

describe('Executor: Scope × Method (R-CALL-1..3)', () => {
  it('runs all four combinations with validated outputs', async () => {
    const provider = new ScriptedProvider([{ summary: 'It rains.' }, { poem: 'Roses are red' }]);
    const seen: ActivityContext[] = [];
    const executor = new Executor({
      provider,
      moduleRoot: root,
      tools: [weather, add, summarize, poem, countImported],
      activities: [
        {
          add: (params) => (params.a as number) + (params.b as number),
          count: (_params, context) => {
            seen.push(context);
            return context.context.length;
          },
        },
      ],
    });
    const context: Message[] = [{ type: 'state', state: { step: 1 } }];

    // inline × latent
    const inlineLatent = await executor.call(
      { _tool: 'weather', city: 'Oslo', _output: { temperature: 3 } },
      context,
    );
    expect(inlineLatent).toEqual([
      {
        type: 'result',
        call: { _tool: 'weather', city: 'Oslo', _output: { temperature: 3 } },
        output: { temperature: 3 },
      },
    ]);
    // inline × explicit
    expect(result(await executor.call({ _tool: 'add', a: 2, b: 3 }, context)).output).toBe(5);
    // module × latent (file)
    expect(
      result(await executor.call({ _tool: 'summarize', text: 'rain' }, context)).output,
    ).toEqual({
      summary: 'It rains.',
    });
    // module × latent (anonymous)
    expect(result(await executor.call({ _tool: 'poem', topic: 'roses' }, context)).output).toEqual({
      poem: 'Roses are red',
    });
    // module × explicit (anonymous): the Activity sees only the imports
    expect(result(await executor.call({ _tool: 'countImported' }, context)).output).toBe(1);
    expect(seen[0]?.context).toEqual(context);
    expect(provider.requests).toHaveLength(2);
    provider.assertComplete();
  });

  it('rejects an inline latent _output that is missing or does not match the schema', async () => {
    const executor = new Executor({ provider: new ScriptedProvider([]), tools: [weather] });
    const missing = result(await executor.call({ _tool: 'weather', city: 'Oslo' }, []));
    expect(missing.error?.code).toBe('INVALID_CALL_OUTPUT');
    expect(missing.error?.message).toContain('"weather" has no `_output`');
    const wrong = result(
      await executor.call({ _tool: 'weather', city: 'Oslo', _output: { temperature: 'cold' } }, []),
    );
    expect(wrong.error?.code).toBe('INVALID_CALL_OUTPUT');
    expect(wrong.error?.message).toContain('/temperature: must be number');
  });

  it('validates module outputs through the sub-request (invalid solution → result error)', async () => {
    const provider = new ScriptedProvider([{ nope: 1 }, { nope: 2 }, { nope: 3 }], {
      validate: false,
    });
    const executor = new Executor({
      provider,
      moduleRoot: root,
      tools: [summarize],
      maxRepairs: 2,
    });
    const failed = result(await executor.call({ _tool: 'summarize', text: 'x' }, []));
    expect(failed.error?.code).toBe('INVALID_SOLUTION');
    expect(provider.requests).toHaveLength(3);
  });

  it('gives an inline Activity the parent context, or only the imports when _imports is set', async () => {
    const seen: Record<string, readonly Message[]> = {};
    const record =
      (name: string) => (_params: Record<string, unknown>, context: ActivityContext) => {
        seen[name] = context.context;
        return null;
      };
    const executor = new Executor({
      provider: new ScriptedProvider([]),
      tools: [tool('plain'), tool('scoped', { _imports: { const: ['input'] } })],
      activities: [{ plain: record('plain'), scoped: record('scoped') }],
    });
    const context: Message[] = [
      { type: 'text', text: 'task' },
      { type: 'input', input: { city: 'Oslo' } },
      { type: 'data', kind: 'secret', data: 1 },
    ];
    await executor.call({ _tool: 'plain' }, context);
    await executor.call({ _tool: 'scoped' }, context);
    expect(seen.plain).toEqual(context);
    expect(seen.scoped).toEqual([{ type: 'input', input: { city: 'Oslo' } }]);
  });

  it('runs an explicit _activity in preference to the same-name Activity (R-TOOL-2)', async () => {
    const executor = new Executor({
      provider: new ScriptedProvider([]),
      tools: [tool('greet', { _activity: { const: 'formal' } })],
      activities: [{ greet: () => 'hi', formal: () => 'good day' }],
    });
    expect(result(await executor.call({ _tool: 'greet' }, [])).output).toBe('good day');
  });

  it('runs a params transformer before the Activity', async () => {
    const executor = new Executor({
      provider: new ScriptedProvider([]),
      tools: [add],
      activities: [{ add: (params) => params }],
      paramsTransformers: { add: (params) => ({ ...params, transformed: true }) },
    });
    expect(result(await executor.call({ _tool: 'add', a: 1, b: 2 }, [])).output).toEqual({
      a: 1,
      b: 2,
      transformed: true,
    });
  });

  it('validates an Activity result against a declared _output', async () => {
    const executor = new Executor({
      provider: new ScriptedProvider([]),
      tools: [tool('typed', { _output: { type: 'number' } })],
      activities: [{ typed: () => 'not a number' }],
    });
    const failed = result(await executor.call({ _tool: 'typed' }, []));
    expect(failed.error?.code).toBe('INVALID_ACTIVITY_OUTPUT');
    expect(failed.error?.message).toContain('Activity "typed" of tool "typed"');
  });
});

describe('Executor: references, imports, output paths, instances', () => {
  const context: Message[] = [
    { type: 'state', state: { city: 'Oslo', unit: 'C' } },
    { type: 'state', state: { city: 'Bergen' }, _instance: 'b' },
    { type: 'input', input: { question: 'weather?' } },
    { type: 'data', kind: 'notes', data: 'private' },
  ];

  it('resolves † references before the Activity sees params; the result keeps the call as written (R-VAR-1)', async () => {
    const executor = new Executor({
      provider: new ScriptedProvider([]),
      tools: [tool('echo', { city: { type: 'string' }, unit: { type: 'string' } })],
      activities: [{ echo: (params) => params }],
    });
    const call = { _tool: 'echo', city: '†state.city', unit: '†state.unit' };
    const messages = await executor.call(call, context);
    expect(result(messages)).toEqual({ type: 'result', call, output: { city: 'Oslo', unit: 'C' } });

    const scoped = await executor.call({ ...call, _instance: 'b' }, context);
    expect(result(scoped).output).toEqual({ city: 'Bergen', unit: 'C' });
    const viaOption = await executor.call(call, context, { instance: 'b' });
    expect(result(viaOption).output).toEqual({ city: 'Bergen', unit: 'C' });

    const unresolved = await executor.call({ _tool: 'echo', city: '†state.country' }, context);
    expect(result(unresolved).error?.code).toBe('UNRESOLVED_REFERENCE');
    expect(result(unresolved).error?.message).toContain('†state.country');
  });

  it('honours dynamic _imports only within the declared enum (R-IMP-1)', async () => {
    const seen: Array<readonly Message[]> = [];
    const executor = new Executor({
      provider: new ScriptedProvider([]),
      tools: [
        tool('look', {
          _imports: { type: 'array', items: { enum: ['input', 'state'] } },
        }),
      ],
      activities: [
        {
          look: (_params, activity) => {
            seen.push(activity.context);
            return activity.context.length;
          },
        },
      ],
    });
    expect(
      result(await executor.call({ _tool: 'look', _imports: ['input'] }, context)).output,
    ).toBe(1);
    expect(seen[0]).toEqual([{ type: 'input', input: { question: 'weather?' } }]);
    expect(result(await executor.call({ _tool: 'look' }, context)).output).toBe(0);

    const refused = result(
      await executor.call({ _tool: 'look', _imports: ['input', 'notes'] }, context),
    );
    expect(refused.error?.code).toBe('IMPORT_NOT_ALLOWED');
    expect(refused.error?.message).toContain('"notes"');
    expect(refused.error?.message).toContain('"look"');
    expect(seen).toHaveLength(2);
  });

  it('scopes imports to the Call instance (R-INST-1)', async () => {
    let imported: readonly Message[] = [];
    const executor = new Executor({
      provider: new ScriptedProvider([]),
      tools: [tool('look', { _imports: { const: ['state'] } })],
      activities: [{ look: (_params, activity) => void (imported = activity.context) }],
    });
    await executor.call({ _tool: 'look', _instance: 'a' }, context);
    expect(imported).toEqual([context[0]]);
    await executor.call({ _tool: 'look', _instance: 'b' }, context);
    expect(imported).toEqual([context[0], context[1]]);
  });

  it('writes the outcome through a fixed or chosen _outputPath as state messages after the result (R-OUT-1, R-OUT-5)', async () => {
    const executor = new Executor({
      provider: new ScriptedProvider([]),
      tools: [
        tool('fixed', { _outputPath: { const: 'state.answer' } }),
        tool('chosen', { _outputPath: { enum: ['state.left', 'state.right'] } }),
        tool('fails', { _outputPath: { const: 'state.ok || state.failure' } }),
      ],
      activities: [
        {
          fixed: () => 42,
          chosen: () => 'x',
          fails: () => {
            throw new Error('disk full');
          },
        },
      ],
    });
    // R-OUT-5: each write records its path, method, Call (a generated id outside the loop) and date.
    const recorded = (path: string): Record<string, unknown> => ({
      _outputPath: path,
      _outputMethod: 'set',
      _call: expect.stringMatching(/^call_[0-9a-f]{12}$/) as unknown,
      _date: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) as unknown,
    });
    const fixed = await executor.call({ _tool: 'fixed', _instance: 'a' }, context);
    expect(fixed.slice(1)).toEqual([
      { type: 'state', state: { answer: 42 }, _instance: 'a', ...recorded('†state.answer') },
    ]);

    const chosen = await executor.call({ _tool: 'chosen', _outputPath: 'state.right' }, context);
    expect(chosen.slice(1)).toEqual([
      { type: 'state', state: { right: 'x' }, ...recorded('†state.right') },
    ]);

    const failing = await executor.call({ _tool: 'fails' }, context);
    expect(result(failing).error?.code).toBe('ACTIVITY_FAILED');
    expect(failing[1]).toMatchObject({
      type: 'state',
      state: { failure: { error: { code: 'ACTIVITY_FAILED' } } },
    });
  });

  it('refuses an output path outside the enum before running, and unsafe paths as result errors (R-OUT-2)', async () => {
    let runs = 0;
    const executor = new Executor({
      provider: new ScriptedProvider([]),
      tools: [
        tool('chosen', { _outputPath: { enum: ['state.left'] } }),
        tool('free', { _outputPath: { type: 'string' } }),
      ],
      activities: [{ chosen: () => runs++, free: () => 'v' }],
    });
    const refused = await executor.call({ _tool: 'chosen', _outputPath: 'state.admin' }, context);
    expect(result(refused).error?.code).toBe('OUTPUT_PATH_NOT_ALLOWED');
    expect(result(refused).error?.message).toContain('"state.admin"');
    expect(runs).toBe(0);

    const unsafe = await executor.call(
      { _tool: 'free', _outputPath: 'state.__proto__.x' },
      context,
    );
    expect(unsafe).toHaveLength(1);
    expect(result(unsafe).error?.code).toBe('UNSAFE_PATH');
  });
});

describe('Executor: failing calls become result errors (R-CALL-5)', () => {
  const executor = new Executor({
    provider: new ScriptedProvider([]),
    tools: [add, tool('boom'), tool('ghost', { _activity: { const: 'missing' } })],
    activities: [
      {
        add: (params) => (params.a as number) + (params.b as number),
        boom: () => {
          throw new Error('the printer caught fire');
        },
      },
    ],
  });

  it('unknown tool → UNKNOWN_TOOL listing the known tools', async () => {
    const failed = result(await executor.call({ _tool: 'mutliply', a: 1 }, []));
    expect(failed).toMatchObject({ type: 'result', call: { _tool: 'mutliply', a: 1 } });
    expect(failed.error?.code).toBe('UNKNOWN_TOOL');
    expect(failed.error?.message).toContain('"mutliply"');
    expect(failed.error?.message).toContain('add, boom, ghost');
  });

  it('invalid params → INVALID_PARAMS naming each param', async () => {
    const failed = result(await executor.call({ _tool: 'add', a: 'one' }, []));
    expect(failed.error?.code).toBe('INVALID_PARAMS');
    expect(failed.error?.message).toContain('"add"');
    expect(failed.error?.message).toContain('/a: must be number');
    expect(failed.error?.message).toContain("must have required property 'b'");
  });

  it('a throwing Activity → ACTIVITY_FAILED keeping the original message', async () => {
    const failed = result(await executor.call({ _tool: 'boom' }, []));
    expect(failed.error?.code).toBe('ACTIVITY_FAILED');
    expect(failed.error?.message).toContain('the printer caught fire');
    expect(failed.error?.message).toContain('"boom"');
  });

  it('an unregistered _activity → UNKNOWN_ACTIVITY naming it', async () => {
    const failed = result(await executor.call({ _tool: 'ghost' }, []));
    expect(failed.error?.code).toBe('UNKNOWN_ACTIVITY');
    expect(failed.error?.message).toContain('"missing"');
  });

  it('an aborted signal → CALL_CANCELLED', async () => {
    const controller = new AbortController();
    controller.abort();
    const failed = result(
      await executor.call({ _tool: 'add', a: 1, b: 2 }, [], { signal: controller.signal }),
    );
    expect(failed.error?.code).toBe('CALL_CANCELLED');
  });
});

describe('Executor: typed calls', () => {
  class Add {
    static readonly toolName = 'add';
    declare static readonly __ideactTypes?: { input: { a: number; b: number }; output: number };
  }
  const Reference: TypedToolReference<{ a: number; b: number }, number> = Add;
  const executor = new Executor({
    provider: new ScriptedProvider([]),
    tools: [add],
    activities: [{ add: (params) => (params.a as number) + (params.b as number) }],
  });

  it('returns the typed output', async () => {
    const sum = await executor.call(Add, { a: 2, b: 40 });
    expectTypeOf(sum).toEqualTypeOf<number>();
    expect(sum).toBe(42);
    expect(await executor.call(Reference, { a: 1, b: 1 }, [])).toBe(2);
  });

  it('throws the typed error on failure', async () => {
    await expect(
      executor.call(Add, { a: 'x' } as unknown as { a: number; b: number }),
    ).rejects.toBeInstanceOf(InvalidParamsError);
  });
});
