import {
  createAgent,
  Executor,
  OUTPUT_METHODS,
  viewOfKind,
  type AgentResult,
  type Message,
  type ProviderRequest,
  type RunEvent,
  type ToolSchema,
} from 'ideact';
import { ScriptedProvider } from 'ideact/testing';

/**
 * Issue 17 item 2 through an agent run (ScriptedProvider + Activities): each output method, the fold
 * across turns, parallel writes where the last Call to finish wins, instance-scoped writes, and the
 * typed error of a push onto a non-array. R-OUT-3..R-OUT-9.
 */

/** Writes its `value` param wherever and however the model says. */
const note: ToolSchema = {
  type: 'object',
  properties: {
    _tool: { const: 'note' },
    value: {},
    _outputPath: { type: 'string' },
    _outputMethod: { enum: [...OUTPUT_METHODS] },
  },
  required: ['_tool', 'value'],
};

/** Waits `ms`, then returns `value`, written to `state.winner` (set) — or pushed, for `queue`. */
function waitTool(name: string, outputMethod?: string): ToolSchema {
  const properties: ToolSchema['properties'] = {
    _tool: { const: name },
    ms: { type: 'integer' },
    value: { type: 'string' },
    _outputPath: { const: outputMethod === undefined ? 'state.winner' : 'state.order' },
  };
  if (outputMethod !== undefined) properties._outputMethod = { const: outputMethod };
  return { type: 'object', properties, required: ['_tool', 'ms', 'value'] };
}

const wait = async (params: Record<string, unknown>): Promise<unknown> => {
  await new Promise((resolve) => setTimeout(resolve, Number(params.ms)));
  return params.value;
};

function textOf(request: ProviderRequest | undefined): string {
  return (request?.messages ?? []).map((message) => message.content).join('\n');
}

function messagesOf(result: AgentResult): Message[] {
  return result.state.nodes.map((node) => node.message) as Message[];
}

function stateOf(result: AgentResult, instance?: string): unknown {
  return viewOfKind(messagesOf(result), 'state', instance)?.data;
}

describe('output methods in an agent run (R-OUT-3, R-OUT-5)', () => {
  it('R-OUT-3 set, merge, assign, push and concat on scalars, objects and arrays; the model sees the folded State', async () => {
    const provider = new ScriptedProvider([
      {
        calls: [
          { _tool: 'note', value: 2, _outputPath: 'n', _outputMethod: 'set' },
          {
            _tool: 'note',
            value: { tags: ['b'], city: 'Oslo' },
            _outputPath: 'user',
            _outputMethod: 'merge',
          },
          {
            _tool: 'note',
            value: { meta: { b: 2 } },
            _outputPath: 'profile',
            _outputMethod: 'assign',
          },
          { _tool: 'note', value: { id: 2 }, _outputPath: 'list', _outputMethod: 'push' },
          { _tool: 'note', value: [3, 4], _outputPath: 'more', _outputMethod: 'concat' },
          { _tool: 'note', value: 'default is set', _outputPath: 'text' },
        ],
        output: null,
      },
      { calls: [], output: 'done' },
    ]);
    const agent = createAgent({
      tools: [note],
      activities: [{ note: (params: Record<string, unknown>) => params.value }],
      provider,
    });
    const context: Message[] = [
      {
        type: 'state',
        state: {
          n: 1,
          text: 'old',
          user: { name: 'Ann', tags: ['a'] },
          profile: { name: 'Ann', meta: { a: 1 } },
          list: [{ id: 1 }],
          more: [0],
        },
      },
    ];
    const result = await agent.run({ context, maxTurns: 3 });
    expect(result.stopReason).toBe('output');
    expect(result.failedCalls).toEqual([]);
    const expected = {
      n: 2,
      text: 'default is set',
      user: { name: 'Ann', tags: ['b'], city: 'Oslo' },
      profile: { name: 'Ann', meta: { b: 2 } },
      list: [{ id: 1 }, { id: 2 }],
      more: [0, 3, 4],
    };
    expect(stateOf(result)).toEqual(expected);

    // R-OUT-5: each write records the Call (`<vessel node id>:<index>`), the date and the method.
    const writes = result.state.nodes.filter((node) => node.metadata.patchOf !== undefined);
    const vesselId = result.state.nodes.find((node) => node.message.type === 'vessel')!.id;
    expect(writes.map((node) => node.message)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          _outputPath: '†state.list',
          _outputMethod: 'push',
          _call: `${vesselId}:3`,
          _date: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/) as unknown,
        }),
        expect.objectContaining({ _outputPath: '†state.text', _outputMethod: 'set' }),
      ]),
    );

    // The second turn's prompt holds the folded State and none of the write metadata.
    const prompt = textOf(provider.requests[1]);
    const dataBlocks = provider.requests[1]!.messages.filter((message) =>
      message.content.startsWith('## Data'),
    );
    expect(dataBlocks).toHaveLength(1);
    const block = dataBlocks[0]!.content;
    expect(block).toContain('"more": [0, 3, 4]');
    expect(block).toContain('"city": "Oslo"');
    for (const hidden of ['_outputMethod', '_outputPath', '_call', '_date', `${vesselId}:`]) {
      expect(block).not.toContain(hidden);
    }
    // The write's own fields appear nowhere in the prompt (the model's Calls show its choices).
    expect(prompt).not.toContain('_call');
    expect(prompt).not.toContain('_date');
    expect(prompt).not.toMatch(/\d{4}-\d\d-\d\dT\d\d:/);
    // Offered to the model: the method choice, with its description.
    const schemaText = JSON.stringify(provider.requests[0]!.schema);
    expect(schemaText).toContain('"_outputMethod"');
    expect(schemaText).toContain('concat = append the items of an array output');
  });

  it('R-OUT-6 the fold runs across turns: push, push, set in the middle, push', async () => {
    const push = (value: string) => ({
      _tool: 'note',
      value,
      _outputPath: 'log',
      _outputMethod: 'push',
    });
    const provider = new ScriptedProvider([
      { calls: [push('a'), { _tool: 'note', value: 'x', _outputPath: 'other' }], output: null },
      { calls: [push('b')], output: null },
      { calls: [{ _tool: 'note', value: ['reset'], _outputPath: 'log' }], output: null },
      { calls: [push('c')], output: null },
      { calls: [], output: 'done' },
    ]);
    const agent = createAgent({
      tools: [note],
      activities: [{ note: (params: Record<string, unknown>) => params.value }],
      provider,
    });
    const result = await agent.run({ task: 'log', maxTurns: 6 });
    expect(stateOf(result)).toEqual({ log: ['reset', 'c'], other: 'x' });
    expect(textOf(provider.requests[2])).toContain('"log": ["a", "b"]');
    expect(textOf(provider.requests[4])).toContain('"log": ["reset", "c"]');
  });
});

describe('parallel writes of one Vessel (R-OUT-8)', () => {
  it('R-OUT-8 Calls writing one path in parallel: the last to finish wins; pushes land in finish order', async () => {
    const provider = new ScriptedProvider([
      {
        calls: [
          { _tool: 'race', ms: 150, value: 'slow' },
          { _tool: 'race', ms: 5, value: 'fast' },
          { _tool: 'race', ms: 60, value: 'middle' },
          { _tool: 'queue', ms: 120, value: 'q-slow' },
          { _tool: 'queue', ms: 5, value: 'q-fast' },
        ],
        output: null,
      },
      { calls: [], output: 'done' },
    ]);
    const agent = createAgent({
      tools: [waitTool('race'), waitTool('queue', 'push')],
      activities: [{ race: wait, queue: wait }],
      provider,
    });
    const run = agent.start({ task: 'race', maxTurns: 3 });
    const ended: string[] = [];
    run.subscribe((event: RunEvent) => {
      if (event.type === 'call-end') ended.push(String(event.output));
    });
    const result = await run.result();
    // The writes follow the order the Calls ended (their call-end events), not the order written.
    const races = ended.filter((value) => !value.startsWith('q-'));
    const queued = ended.filter((value) => value.startsWith('q-'));
    expect(races[races.length - 1]).toBe('slow');
    expect(queued).toEqual(['q-fast', 'q-slow']);
    expect(stateOf(result)).toEqual({ winner: races[races.length - 1], order: queued });
    // The Vessel schema hides the fixed method and path.
    expect(JSON.stringify(provider.requests[0]!.schema)).not.toContain('_outputMethod');
  });

  it('R-OUT-8 Calls started while the model streams record in the order they finished', async () => {
    const provider = new ScriptedProvider(
      [
        {
          calls: [
            { _tool: 'race', ms: 60, value: 'slow' },
            { _tool: 'race', ms: 1, value: 'fast' },
            { _tool: 'pad', text: 'x'.repeat(1600) },
          ],
          output: null,
        },
        { calls: [], output: 'done' },
      ],
      { stream: { chunkSize: 4, delayMs: 1 } },
    );
    const pad: ToolSchema = {
      type: 'object',
      properties: { _tool: { const: 'pad' }, text: { type: 'string' } },
      required: ['_tool', 'text'],
    };
    const agent = createAgent({
      tools: [waitTool('race'), pad],
      activities: [{ race: wait, pad: () => null }],
      provider,
    });
    const run = agent.start({ task: 'race', maxTurns: 3 });
    const eager: string[] = [];
    let generationEnded = 0;
    const finished = new Map<string, number>();
    run.subscribe((event: RunEvent) => {
      if (event.type === 'call-start' && event.eager) eager.push(event.callId);
      if (event.type === 'call-end') finished.set(String(event.output), event.time);
      if (event.type === 'request-end' && generationEnded === 0) generationEnded = event.time;
    });
    const result = await run.result();
    expect(eager).toEqual(expect.arrayContaining(['1:0', '1:1']));
    // Both finished before the model did (it streams ~400 chunks, 1 ms apart, so a loaded machine
    // keeps the order), 'fast' first: the Actor records 'slow' last.
    expect(finished.get('slow')).toBeLessThanOrEqual(generationEnded);
    expect(finished.get('fast')).toBeLessThanOrEqual(finished.get('slow')!);
    expect(stateOf(result)).toEqual({ winner: 'slow' });
  });
});

describe('instances and type errors in a run (R-OUT-9, R-OUT-7)', () => {
  it('R-OUT-9 writes of Calls with _instance are scoped to that instance; the global value stays', async () => {
    const provider = new ScriptedProvider([
      {
        calls: [
          { _tool: 'note', _instance: 'a', value: 'a1', _outputPath: 'log', _outputMethod: 'push' },
          {
            _tool: 'note',
            _instance: 'b',
            value: ['b1', 'b2'],
            _outputPath: 'log',
            _outputMethod: 'concat',
          },
        ],
        output: null,
      },
      { calls: [], output: 'done' },
    ]);
    const agent = createAgent({
      tools: [note],
      activities: [{ note: (params: Record<string, unknown>) => params.value }],
      provider,
    });
    const context: Message[] = [{ type: 'state', state: { log: ['global'] } }];
    const result = await agent.run({ context, instances: ['a', 'b'], maxTurns: 3 });
    expect(stateOf(result)).toEqual({ log: ['global'] });
    expect(stateOf(result, 'a')).toEqual({ log: ['global', 'a1'] });
    expect(stateOf(result, 'b')).toEqual({ log: ['global', 'b1', 'b2'] });
    const prompt = textOf(provider.requests[1]);
    expect(prompt).toContain('## Data: ¶state (instance a)\n{\n  "log": ["global", "a1"]\n}');
    expect(prompt).toContain('## Data: ¶state (instance b)\n{\n  "log": ["global", "b1", "b2"]\n}');
  });

  it('R-OUT-7 a push onto a value that is not an array fails the Call with INVALID_OUTPUT_WRITE, shown to the model', async () => {
    const provider = new ScriptedProvider([
      {
        calls: [{ _tool: 'note', value: 1, _outputPath: 'name', _outputMethod: 'push' }],
        output: null,
      },
      { calls: [], output: 'done' },
    ]);
    const agent = createAgent({
      tools: [note],
      activities: [{ note: (params: Record<string, unknown>) => params.value }],
      provider,
    });
    const context: Message[] = [{ type: 'state', state: { name: 'Ann' } }];
    const result = await agent.run({ context, maxTurns: 3 });
    expect(result.failedCalls).toHaveLength(1);
    const failed = result.failedCalls[0]!;
    expect(failed.code).toBe('INVALID_OUTPUT_WRITE');
    expect(failed.message).toContain(
      `Call ${failed.callId} of tool "note" cannot push to "†state.name"`,
    );
    expect(stateOf(result)).toEqual({ name: 'Ann' });
    expect(textOf(provider.requests[1])).toContain('Error INVALID_OUTPUT_WRITE');
  });

  it('R-OUT-4 a method outside the enum is refused before the Activity runs (OUTPUT_METHOD_NOT_ALLOWED)', async () => {
    let runs = 0;
    const limited: ToolSchema = {
      ...note,
      properties: { ...note.properties, _outputMethod: { enum: ['set', 'push'] } },
    };
    const executor = new Executor({
      provider: new ScriptedProvider([]),
      tools: [limited],
      activities: [{ note: () => runs++ }],
    });
    const call = { _tool: 'note', value: 1, _outputPath: 'n || failed' };
    const refused = await executor.call({ ...call, _outputMethod: 'merge' }, []);
    expect(refused[0]).toMatchObject({
      type: 'result',
      error: { code: 'OUTPUT_METHOD_NOT_ALLOWED' },
    });
    // The refusal goes to the failure path of `||`, as a set.
    expect(refused[1]).toMatchObject({
      state: { failed: { error: { code: 'OUTPUT_METHOD_NOT_ALLOWED' } } },
      _outputMethod: 'set',
    });
    expect(runs).toBe(0);
    const pushed = await executor.call({ ...call, _outputMethod: 'push' }, []);
    expect(pushed[1]).toMatchObject({ state: { n: 0 }, _outputMethod: 'push' });
    expect(runs).toBe(1);
  });
});
