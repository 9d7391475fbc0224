import { createAgent, type Agent, type AgentConfig, type RunEvent, type ToolSchema } from 'ideact';
import { ScriptedProvider, type ScriptEntry } from 'ideact/testing';
import { ofType, weatherTool } from './run-fixtures';

/**
 * Issue 16 item 5: Calls start while the model is still writing the Vessel. The provider streams each
 * reply in 12-character deltas 100 ms apart and each Activity takes 150 ms, all under jest's fake
 * timers, so the order of events is exact and the test takes no real time.
 */
const CHUNK = { chunkSize: 12, delayMs: 100 };
const ACTIVITY_MS = 150;

/** A tool that writes its output into the State (`_outputPath`), which a later Call may read. */
const geocodeTool: ToolSchema = {
  type: 'object',
  properties: {
    _tool: { const: 'geocode' },
    _outputPath: { type: 'string' },
    place: { type: 'string' },
  },
  required: ['_tool', 'place'],
};

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

interface EagerSetup {
  agent: Agent;
  provider: ScriptedProvider;
  /** Every Activity call, in order, as `tool city`. */
  executed: string[];
}

function eagerAgent(
  script: ScriptEntry[],
  config: AgentConfig & { validate?: boolean; weatherMs?: Record<string, number> } = {},
): EagerSetup {
  const { validate, weatherMs = {}, ...agentConfig } = config;
  const provider = new ScriptedProvider(script, { stream: CHUNK, validate });
  const executed: string[] = [];
  const agent = createAgent({
    tools: [weatherTool, geocodeTool],
    activities: [
      {
        weather: async (params: Record<string, unknown>) => {
          executed.push(`weather ${String(params.city)}`);
          await sleep(weatherMs[String(params.city)] ?? ACTIVITY_MS);
          return { city: params.city, sky: 'sun' };
        },
        geocode: async (params: Record<string, unknown>) => {
          executed.push(`geocode ${String(params.place)}`);
          await sleep(ACTIVITY_MS);
          return { city: String(params.place) };
        },
      },
    ],
    provider,
    ...agentConfig,
  });
  return { agent, provider, executed };
}

/** Runs `agent` to its end under fake timers, with every event it emitted (deltas included). */
async function runToEnd(
  agent: Agent,
  options: Parameters<Agent['start']>[0],
): Promise<{ events: RunEvent[]; result: Awaited<ReturnType<Agent['run']>>; elapsedMs: number }> {
  const startedAt = Date.now();
  let endedAt = Number.NaN;
  const stream = agent.stream(options);
  stream.run.subscribe((event) => {
    if (event.type === 'run-end' && event.runId === stream.runId) endedAt = Date.now();
  });
  const events: RunEvent[] = [];
  const reading = (async () => {
    for await (const event of stream) events.push(event);
  })();
  let settled = false;
  void stream.result.finally(() => {
    settled = true;
  });
  for (let round = 0; round < 200 && !settled; round++) await jest.advanceTimersByTimeAsync(100);
  const result = await stream.result;
  await reading;
  return { events, result, elapsedMs: endedAt - startedAt };
}

/** `type callId` of the first turn's events up to its `request-end`, and the rest. */
function firstTurn(events: readonly RunEvent[]): { before: RunEvent[]; after: RunEvent[] } {
  const end = events.findIndex((event) => event.type === 'request-end');
  expect(end).toBeGreaterThan(0);
  return { before: events.slice(0, end), after: events.slice(end + 1) };
}

const threeCities = {
  calls: [
    { _tool: 'weather', city: 'Oslo' },
    { _tool: 'weather', city: 'Rome' },
    { _tool: 'weather', city: 'Lima' },
  ],
  output: null,
};

beforeEach(() => {
  // nextTick and microtasks stay real: only timers (the stream's delays, the Activities) are faked.
  jest.useFakeTimers({ doNotFake: ['nextTick', 'queueMicrotask'] });
});
afterEach(() => {
  jest.useRealTimers();
});

describe('eager calls (issue 16 item 5)', () => {
  it('Calls start while the Vessel streams: call-start (eager: true) comes before the turn’s request-end', async () => {
    const { agent, provider, executed } = eagerAgent([threeCities, { calls: [], output: 'ok' }]);
    const { events, result } = await runToEnd(agent, { task: 'Weather in three cities' });
    expect(result.output).toBe('ok');
    provider.assertComplete();

    const { before, after } = firstTurn(events);
    const early = ofType(before, 'call-start');
    expect(early.length).toBeGreaterThanOrEqual(2);
    expect(early.map((event) => event.callId).slice(0, 2)).toEqual(['1:0', '1:1']);
    expect(early.every((event) => event.eager)).toBe(true);
    // The model was still writing: text deltas of the same request follow the first call-start.
    const firstStart = before.indexOf(early[0]!);
    expect(
      before.slice(firstStart).filter((event) => event.type === 'solution-delta').length,
    ).toBeGreaterThan(2);
    // At least one Call even finished before the model did.
    expect(ofType(before, 'call-end').length).toBeGreaterThanOrEqual(1);

    // Every Call ran exactly once, and the Actor recorded them all (marked eager when they were).
    expect(executed).toEqual(['weather Oslo', 'weather Rome', 'weather Lima']);
    const allStarts = ofType(events, 'call-start');
    expect(allStarts.map((event) => event.callId)).toEqual(['1:0', '1:1', '1:2']);
    expect(ofType(after, 'call-start').every((event) => !event.eager)).toBe(true);
    const results = result.state.nodes.filter((node) => node.message.type === 'result');
    expect(results.map((node) => node.metadata.source?.callIndex)).toEqual([0, 1, 2]);
    for (const node of results.slice(0, early.length)) expect(node.metadata.eager).toBe(true);
  });

  it('with eagerCalls: false every call-start comes after request-end', async () => {
    const { agent, executed } = eagerAgent([threeCities, { calls: [], output: 'ok' }], {
      eagerCalls: false,
    });
    const { events, result } = await runToEnd(agent, { task: 'Weather in three cities' });
    expect(result.output).toBe('ok');
    const { before, after } = firstTurn(events);
    expect(before.filter((event) => event.type.startsWith('call-'))).toEqual([]);
    const starts = ofType(after, 'call-start');
    expect(starts.map((event) => event.callId)).toEqual(['1:0', '1:1', '1:2']);
    expect(starts.every((event) => !event.eager)).toBe(true);
    expect(executed).toHaveLength(3);
    // The stream still ran (the listener sees deltas), just without starting anything early.
    expect(ofType(before, 'solution-delta').length).toBeGreaterThan(3);
  });

  it('eager calls save time: a slow first Call overlaps the rest of the stream', async () => {
    // The Vessel streams for 1,000 ms (10 deltas); the Oslo Call, complete after ~300 ms, takes 800 ms.
    const elapsed = async (eagerCalls: boolean): Promise<number> => {
      const { agent } = eagerAgent([threeCities, { calls: [], output: 'ok' }], {
        eagerCalls,
        weatherMs: { Oslo: 800 },
      });
      const { result, elapsedMs } = await runToEnd(agent, { task: 'Weather in three cities' });
      expect(result.output).toBe('ok');
      return elapsedMs;
    };
    const streamMs = Math.ceil(JSON.stringify(threeCities).length / CHUNK.chunkSize) * 100;
    const answerMs = Math.ceil(JSON.stringify({ calls: [], output: 'ok' }).length / 12) * 100;
    const without = await elapsed(false);
    expect(without).toBeGreaterThanOrEqual(streamMs + 800 + answerMs);
    const withEager = await elapsed(true);
    expect(withEager).toBeLessThanOrEqual(without - 500);
  });

  it('a run with a confirm hook starts nothing early (approval comes first, R-LOOP-4)', async () => {
    const approved: string[][] = [];
    const { agent } = eagerAgent([threeCities, { calls: [], output: 'ok' }], {
      confirm: (calls) => {
        approved.push(calls.map((call) => String(call.city)));
        return calls.map(() => ({ approve: true }));
      },
    });
    const { events, result } = await runToEnd(agent, { task: 'Weather in three cities' });
    expect(result.output).toBe('ok');
    const { before, after } = firstTurn(events);
    expect(before.filter((event) => event.type.startsWith('call-'))).toEqual([]);
    expect(approved).toEqual([['Oslo', 'Rome', 'Lima']]);
    const approval = after.findIndex((event) => event.type === 'approval-requested');
    const firstStart = after.findIndex((event) => event.type === 'call-start');
    expect(approval).toBeGreaterThanOrEqual(0);
    expect(approval).toBeLessThan(firstStart);
    expect(ofType(events, 'call-start').every((event) => !event.eager)).toBe(true);
  });

  it('a Call holding a † reference that does not resolve yet is not started early; the others are', async () => {
    const { agent, executed } = eagerAgent([
      {
        calls: [
          { _tool: 'weather', city: '†state.home.city' },
          { _tool: 'weather', city: 'Oslo' },
          { _tool: 'geocode', place: 'Rome', _outputPath: 'home' },
          { _tool: 'weather', city: 'Lima' },
        ],
        output: null,
      },
      { calls: [], output: 'ok' },
    ]);
    const { events, result } = await runToEnd(agent, { task: 'Weather at home' });
    expect(result.output).toBe('ok');
    const { before } = firstTurn(events);
    const early = ofType(before, 'call-start').map((event) => event.callId);
    expect(early).toContain('1:1');
    expect(early).toContain('1:2');
    expect(early).not.toContain('1:0');
    const referencing = ofType(events, 'call-start').find((event) => event.callId === '1:0');
    expect(referencing).toMatchObject({ eager: false, params: { city: '†state.home.city' } });
    // Each Call ran once.
    expect(executed.filter((entry) => entry === 'weather Oslo')).toHaveLength(1);
    expect(executed.filter((entry) => entry === 'geocode Rome')).toHaveLength(1);
  });

  it('a solution that fails validation after Calls started keeps their results; the next request shows them and the solution error', async () => {
    const { agent, provider, executed } = eagerAgent(
      [
        {
          calls: [
            { _tool: 'weather', city: 'Oslo' },
            { _tool: 'weather', city: 'Rome' },
            // Invalid: no city. It never starts, and it makes the whole solution invalid.
            { _tool: 'weather' },
          ],
          output: null,
        },
        { calls: [], output: 'ok' },
      ],
      { validate: false },
    );
    const { events, result } = await runToEnd(agent, { task: 'Weather in two cities' });
    expect(result.output).toBe('ok');
    expect(result.stopReason).toBe('output');
    // No repair request: the model's next turn sees the started Calls' results instead.
    expect(provider.requests).toHaveLength(2);
    expect(executed).toEqual(['weather Oslo', 'weather Rome']);

    const { before } = firstTurn(events);
    expect(ofType(before, 'call-start').map((event) => [event.callId, event.eager])).toEqual([
      ['1:0', true],
      ['1:1', true],
    ]);
    // Each started Call ran once: no second call-start for it.
    expect(ofType(events, 'call-start')).toHaveLength(2);

    const nodes = result.state.nodes;
    const vesselNode = nodes[1]!;
    expect(vesselNode.message).toEqual({
      type: 'vessel',
      calls: [
        { _tool: 'weather', city: 'Oslo' },
        { _tool: 'weather', city: 'Rome' },
      ],
      output: null,
    });
    const results = nodes.filter(
      (node) => node.message.type === 'result' && node.metadata.source?.nodeId === 1,
    );
    expect(results.map((node) => node.message)).toEqual([
      expect.objectContaining({ output: { city: 'Oslo', sky: 'sun' } }),
      expect.objectContaining({ output: { city: 'Rome', sky: 'sun' } }),
    ]);
    const solutionError = nodes.find(
      (node) => node.message.type === 'result' && node.message.call._tool === 'solution',
    );
    expect(solutionError?.message).toMatchObject({ error: { code: 'INVALID_SOLUTION' } });

    const second = provider.requests[1]!.messages.map((message) => message.content).join('\n');
    expect(second).toContain('Oslo');
    expect(second).toContain('Rome');
    expect(second).toContain('"sky": "sun"');
    expect(second).toContain('INVALID_SOLUTION');
  });
});
