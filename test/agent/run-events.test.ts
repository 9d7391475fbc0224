import { createAgent, type RunEvent } from 'ideact';
import { ScriptedProvider } from 'ideact/testing';
import {
  collect,
  makeRunModuleRoot,
  nestedScript,
  ofType,
  plannerTool,
  removeRunModuleRoot,
  summarizeTool,
  sunny,
  weatherTool,
} from './run-fixtures';

/** Issue 16 item 3: one event stream for the whole run tree, with paths, times and plain JSON. */
let root: string;
beforeAll(async () => {
  root = await makeRunModuleRoot();
});
afterAll(async () => {
  await removeRunModuleRoot(root);
});

function nestedAgent(): ReturnType<typeof createAgent> {
  return createAgent({
    tools: [summarizeTool, plannerTool],
    activities: [sunny],
    provider: new ScriptedProvider(nestedScript),
    moduleRoot: root,
    // One Call at a time, so the two module Calls' events do not interleave (the order is asserted).
    actorConcurrency: 1,
  });
}

describe('the event stream of a nested run (issue 16 item 3, R-MOD-5)', () => {
  it('R-MOD-5 streams the root run, a module sub-request and a nested agent run in order, each with its own path', async () => {
    const stream = nestedAgent().stream({ task: 'Summarize and plan' });
    const events = await collect(stream);
    const result = await stream.result;
    expect(result.output).toBe('done');

    const rootId = stream.runId;
    expect(stream.run.id).toBe(rootId);
    const nestedStart = ofType(events, 'run-start').find((event) => event.runId !== rootId);
    expect(nestedStart).toBeDefined();
    const nestedId = nestedStart!.runId;
    expect(nestedId).not.toBe(rootId);
    // A nested agent's run is a new run, not a resumed one (CLI progress shows "resumed" otherwise).
    expect(nestedStart!.resumed).toBe(false);
    expect(events[0]).toMatchObject({ type: 'run-start', runId: rootId, resumed: false });
    expect(nestedStart!.chain.map((id) => id.slice(id.lastIndexOf('/') + 1))).toEqual([
      'planner.json',
    ]);

    // The Vessel is node 1: `summarize` is Call 1:0, `planner` is Call 1:1.
    const alias = (id: string): string =>
      id === rootId ? 'root' : id === nestedId ? 'nested' : id;
    const line = (event: RunEvent): string => {
      const where = event.path.map(alias).join('/');
      const detail =
        event.type === 'step'
          ? ` ${event.module}→${event.next}`
          : event.type === 'call-start' || event.type === 'call-end'
            ? ` ${event.callId} ${event.tool}`
            : event.type === 'run-end'
              ? ` ${event.stopReason}`
              : '';
      return `${event.type}${detail} @${where}`;
    };
    const turn = (where: string): string[] => [
      `step prompter→generator @${where}`,
      `request-start @${where}`,
      `solution-delta @${where}`,
      `request-end @${where}`,
      `step generator→discriminator @${where}`,
      `step discriminator→actor @${where}`,
    ];
    // The partial values a Generator's request carries (issue 32) are checked in output-deltas.test.ts.
    const shown = events.filter((event) => event.type !== 'output-delta');
    expect(shown.map(line)).toEqual([
      'run-start @root',
      ...turn('root'),
      'call-start 1:0 summarize @root',
      'request-start @root/1:0',
      'solution-delta @root/1:0',
      'request-end @root/1:0',
      'call-end 1:0 summarize @root',
      'call-start 1:1 planner @root',
      'run-start @root/1:1/nested',
      ...turn('root/1:1/nested'),
      'call-start 2:0 weather @root/1:1/nested',
      'call-end 2:0 weather @root/1:1/nested',
      'step actor→prompter @root/1:1/nested',
      ...turn('root/1:1/nested'),
      'step actor→done @root/1:1/nested',
      'run-end output @root/1:1/nested',
      'call-end 1:1 planner @root',
      'step actor→prompter @root',
      ...turn('root'),
      'step actor→done @root',
      'run-end output @root',
    ]);

    // runId: the nested run's own id for its events, the root's for everything else.
    for (const event of events) {
      const nested = event.path.length === 3 && event.path[2] === nestedId;
      expect(event.runId).toBe(nested ? nestedId : rootId);
      expect(event.path[0]).toBe(rootId);
    }
    expect(ofType(events, 'run-end').map((event) => [event.runId, event.output])).toEqual([
      [nestedId, 'plan'],
      [rootId, 'done'],
    ]);
    // A request's events share its id; the module sub-request's id is scoped to its Call.
    const moduleRequest = ofType(events, 'request-start').find((event) => event.path.length === 2)!;
    expect(moduleRequest).toMatchObject({ schemaName: 'summarize', attempt: 0 });
    expect(
      ofType(events, 'request-end').filter((e) => e.requestId === moduleRequest.requestId),
    ).toHaveLength(1);
    expect(ofType(events, 'call-end')[0]).toMatchObject({
      callId: '1:0',
      output: { summary: 'short' },
    });
    expect(ofType(events, 'call-start').every((event) => event.eager === false)).toBe(true);
  });

  it('every event has a monotonic time and is plain JSON', async () => {
    const stream = nestedAgent().stream({ task: 'Summarize and plan' });
    const events = await collect(stream);
    await stream.result;
    expect(events.length).toBeGreaterThan(30);
    let previous = 0;
    for (const event of events) {
      expect(typeof event.time).toBe('number');
      expect(event.time).toBeGreaterThanOrEqual(previous);
      previous = event.time;
      expect(JSON.parse(JSON.stringify(event))).toStrictEqual(event);
    }
    // The times are wall-clock milliseconds (since the epoch), not a process-relative counter.
    expect(Math.abs(events[0]!.time - Date.now())).toBeLessThan(60_000);
  });

  it('run.subscribe() sees the same events as the stream, and stops after unsubscribe', async () => {
    const agent = nestedAgent();
    const run = agent.start({ task: 'Summarize and plan' });
    const seen: RunEvent[] = [];
    const unsubscribe = run.subscribe((event) => seen.push(event));
    let afterNestedStart = 0;
    const stopAtNested = run.subscribe((event) => {
      afterNestedStart += 1;
      if (event.type === 'run-start' && event.runId !== run.id) stopAtNested();
    });
    const streamed = collect(run.events());
    await run.result();
    unsubscribe();
    expect((await streamed).map((event) => event.type)).toEqual(seen.map((event) => event.type));
    expect(seen[seen.length - 1]).toMatchObject({ type: 'run-end', runId: run.id });
    const nestedIndex = seen.findIndex(
      (event) => event.type === 'run-start' && event.runId !== run.id,
    );
    expect(afterNestedStart).toBe(nestedIndex + 1);
  });
});

describe('listeners cannot break a run (issue 16 item 3)', () => {
  function weatherAgent(): ReturnType<typeof createAgent> {
    return createAgent({
      tools: [weatherTool],
      activities: [sunny],
      provider: new ScriptedProvider([
        { calls: [{ _tool: 'weather', city: 'Oslo' }], output: null },
        { calls: [], output: 'sunny' },
      ]),
    });
  }

  afterEach(() => {
    jest.restoreAllMocks();
  });

  it('a subscriber that throws becomes an IDEACT_LISTENER_ERROR warning; the run and the other listeners go on', async () => {
    const warn = jest.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    const run = weatherAgent().start({ task: 'Weather in Oslo?' });
    let thrown = 0;
    run.subscribe(() => {
      thrown += 1;
      throw new Error('listener bug');
    });
    const seen: string[] = [];
    run.subscribe((event) => seen.push(event.type));
    const result = await run.result();
    expect(result.output).toBe('sunny');
    expect(result.stopReason).toBe('output');
    expect(seen[0]).toBe('run-start');
    expect(seen[seen.length - 1]).toBe('run-end');
    expect(thrown).toBe(seen.length);
    const listenerWarnings = warn.mock.calls.filter(
      ([, options]) =>
        typeof options === 'object' &&
        options !== null &&
        (options as { code?: string }).code === 'IDEACT_LISTENER_ERROR',
    );
    expect(listenerWarnings).toHaveLength(seen.length);
    expect(String(listenerWarnings[0]![0])).toContain('listener bug');
  });

  it('leaving a for await over agent.stream() early stops reading, not the run: result still resolves', async () => {
    const stream = weatherAgent().stream({ task: 'Weather in Oslo?' });
    let read = 0;
    for await (const event of stream) {
      read += 1;
      if (event.type === 'request-start') break;
    }
    expect(read).toBe(3);
    const result = await stream.result;
    expect(result.stopReason).toBe('output');
    expect(result.output).toBe('sunny');
    expect(result.state.usage.turns).toBe(2);
  });
});
