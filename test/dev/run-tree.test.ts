import {
  applyRequestMessages,
  applyRunEvent,
  callKey,
  emptyRunTree,
  flattenRunTree,
  pendingApprovals,
  reduceRunEvents,
  requestKey,
  rootStatus,
  runKey,
  type CallNode,
  type RequestNode,
  type RunNode,
} from '../../playground/src/run-tree';
import type { RunEvent } from 'ideact';
import type { RunEventJson } from '../../playground/src/api-types';
import { buildWaterfall, formatDuration } from '../../playground/src/waterfall';

/**
 * The run view's events → tree reducer (issue 20), on the worked example of docs/runs-and-events.md:
 * run_A's Call 1:0 is an anonymous module (a sub-request at [run_A, 1:0]); 1:1 runs the nested agent
 * run_B (path [run_A, 1:1, run_B]), whose module Call 2:1 makes a sub-request one level deeper.
 */

const usage = { inputTokens: 10, outputTokens: 5, cachedTokens: 0 };
const runUsage = { ...usage, steps: 1, turns: 1, elapsedMs: 5 };
const A = ['run_A'];
const B = ['run_A', '1:1', 'run_B'];

const events: RunEventJson[] = [
  {
    type: 'run-start',
    runId: 'run_A',
    path: A,
    time: 1000,
    task: 'plan',
    chain: [],
    resumed: false,
  },
  {
    type: 'request-start',
    runId: 'run_A',
    path: A,
    time: 1001,
    requestId: 'run_A#1',
    schemaName: 'vessel',
    attempt: 0,
  },
  {
    type: 'solution-delta',
    runId: 'run_A',
    path: A,
    time: 1002,
    requestId: 'run_A#1',
    index: 0,
    delta: '{"calls":[',
  },
  {
    type: 'call-start',
    runId: 'run_A',
    path: A,
    time: 1003,
    callId: '1:0',
    tool: 'summarize',
    params: { text: 'x' },
    eager: true,
  },
  {
    type: 'request-start',
    runId: 'run_A',
    path: ['run_A', '1:0'],
    time: 1004,
    requestId: '1:0#1',
    schemaName: 'summarize',
    attempt: 0,
  },
  {
    type: 'solution-delta',
    runId: 'run_A',
    path: A,
    time: 1005,
    requestId: 'run_A#1',
    index: 0,
    delta: ']}',
  },
  {
    type: 'request-end',
    runId: 'run_A',
    path: A,
    time: 1010,
    requestId: 'run_A#1',
    model: 'scripted',
    usage,
  },
  {
    type: 'call-start',
    runId: 'run_A',
    path: A,
    time: 1011,
    callId: '1:1',
    tool: 'planner',
    params: {},
    eager: false,
  },
  { type: 'run-start', runId: 'run_B', path: B, time: 1012, chain: ['planner'], resumed: false },
  { type: 'request-start', runId: 'run_B', path: B, time: 1013, requestId: 'run_B#1', attempt: 0 },
  {
    type: 'request-end',
    runId: 'run_B',
    path: B,
    time: 1014,
    requestId: 'run_B#1',
    model: 'scripted',
    usage,
  },
  {
    type: 'call-start',
    runId: 'run_B',
    path: B,
    time: 1015,
    callId: '2:1',
    tool: 'advise',
    params: {},
    eager: false,
  },
  {
    type: 'request-start',
    runId: 'run_B',
    path: [...B, '2:1'],
    time: 1016,
    requestId: '2:1#1',
    attempt: 0,
  },
  {
    type: 'request-end',
    runId: 'run_B',
    path: [...B, '2:1'],
    time: 1018,
    requestId: '2:1#1',
    model: 'scripted',
    usage,
    error: { code: 'PROVIDER_ERROR', message: 'boom' },
  },
  {
    type: 'call-end',
    runId: 'run_B',
    path: B,
    time: 1019,
    callId: '2:1',
    tool: 'advise',
    error: { code: 'PROVIDER_ERROR', message: 'boom' },
  },
  {
    type: 'run-end',
    runId: 'run_B',
    path: B,
    time: 1020,
    stopReason: 'output',
    output: { plan: 1 },
    usage: runUsage,
  },
  {
    type: 'call-end',
    runId: 'run_A',
    path: A,
    time: 1021,
    callId: '1:1',
    tool: 'planner',
    output: { plan: 1 },
  },
  {
    type: 'request-end',
    runId: 'run_A',
    path: ['run_A', '1:0'],
    time: 1022,
    requestId: '1:0#1',
    model: 'scripted',
    usage,
  },
  {
    type: 'call-end',
    runId: 'run_A',
    path: A,
    time: 1023,
    callId: '1:0',
    tool: 'summarize',
    output: 'short',
  },
  {
    type: 'run-end',
    runId: 'run_A',
    path: A,
    time: 1030,
    stopReason: 'output',
    output: 'done',
    usage: runUsage,
  },
];

function node<T>(tree: ReturnType<typeof emptyRunTree>, key: string): T {
  const found = tree.nodes[key];
  if (found === undefined) throw new Error(`no node ${key}`);
  return found as T;
}

describe('run tree reducer', () => {
  it('accepts the runtime’s own RunEvent type (the playground declares the same JSON)', () => {
    const asJson = (event: RunEvent): RunEventJson => event;
    const start: RunEvent = {
      type: 'run-start',
      runId: 'r',
      path: ['r'],
      time: 1,
      chain: [],
      resumed: false,
    };
    expect(rootStatus(applyRunEvent(emptyRunTree(), asJson(start)))).toBe('running');
  });

  const tree = reduceRunEvents(emptyRunTree(), events);

  it('places requests, Calls, module sub-requests and nested runs by path', () => {
    expect(tree.roots).toEqual(['run_A']);
    const rows = flattenRunTree(tree).map(
      ({ node: row, depth }) => `${depth} ${row.kind} ${row.key}`,
    );
    expect(rows).toEqual([
      '0 run run_A',
      `1 request ${requestKey(A, 'run_A#1')}`,
      `1 call ${callKey(A, '1:0')}`,
      `2 request ${requestKey(['run_A', '1:0'], '1:0#1')}`,
      `1 call ${callKey(A, '1:1')}`,
      `2 run ${runKey(B)}`,
      `3 request ${requestKey(B, 'run_B#1')}`,
      `3 call ${callKey(B, '2:1')}`,
      `4 request ${requestKey([...B, '2:1'], '2:1#1')}`,
    ]);
  });

  it('streams the solution text and records each request’s usage, model and error', () => {
    const root = node<RequestNode>(tree, requestKey(A, 'run_A#1'));
    expect(root.texts).toEqual(['{"calls":[]}']);
    expect(root).toMatchObject({
      status: 'done',
      usage,
      model: 'scripted',
      start: 1001,
      end: 1010,
    });
    const failed = node<RequestNode>(tree, requestKey([...B, '2:1'], '2:1#1'));
    expect(failed).toMatchObject({ status: 'error', error: { code: 'PROVIDER_ERROR' } });
  });

  it('keeps the latest partial output of a request (output-delta, issue 32 item 3); params deltas leave it', () => {
    const base = { runId: 'run_A', path: A, requestId: 'run_A#1' };
    const grown = reduceRunEvents(emptyRunTree(), [
      ...events,
      { ...base, type: 'output-delta', time: 1020, part: 'output', value: 'Hel' },
      { ...base, type: 'output-delta', time: 1021, part: 'params', callIndex: 0, value: { a: 1 } },
      { ...base, type: 'output-delta', time: 1022, part: 'output', value: 'Hello' },
    ]);
    expect(node<RequestNode>(grown, requestKey(A, 'run_A#1')).output).toBe('Hello');
    expect(node<RequestNode>(tree, requestKey(A, 'run_A#1')).output).toBeUndefined();
  });

  it('shows a model’s reasoning apart from its solution text (issue 30 item 3)', () => {
    const base = { runId: 'run_A', path: A, requestId: 'run_A#1' };
    const thought = reduceRunEvents(emptyRunTree(), [
      { ...base, type: 'request-start', time: 1, attempt: 0 },
      { ...base, type: 'reasoning-delta', time: 2, index: 0, delta: 'Check the ' },
      { ...base, type: 'reasoning-delta', time: 3, index: 0, delta: 'weather.' },
      { ...base, type: 'solution-delta', time: 4, index: 0, delta: '{}' },
    ]);
    const request = node<RequestNode>(thought, requestKey(A, 'run_A#1'));
    expect(request.reasoning).toEqual(['Check the weather.']);
    expect(request.texts).toEqual(['{}']);
    expect(node<RequestNode>(tree, requestKey(A, 'run_A#1')).reasoning).toBeUndefined();
  });

  it('records each Call’s params, output or error and its status', () => {
    expect(node<CallNode>(tree, callKey(A, '1:0'))).toMatchObject({
      tool: 'summarize',
      params: { text: 'x' },
      eager: true,
      output: 'short',
      status: 'done',
      started: true,
    });
    expect(node<CallNode>(tree, callKey(B, '2:1'))).toMatchObject({
      status: 'error',
      error: { message: 'boom' },
    });
    expect(node<RunNode>(tree, runKey(B))).toMatchObject({
      status: 'done',
      chain: ['planner'],
      output: { plan: 1 },
    });
    expect(rootStatus(tree)).toBe('completed');
  });

  it('shows an eager Call while its request is still running', () => {
    const partway = reduceRunEvents(emptyRunTree(), events.slice(0, 4));
    expect(node<CallNode>(partway, callKey(A, '1:0')).status).toBe('running');
    expect(node<RequestNode>(partway, requestKey(A, 'run_A#1')).status).toBe('running');
    expect(rootStatus(partway)).toBe('running');
  });

  it('never mutates the tree it is given', () => {
    const before = reduceRunEvents(emptyRunTree(), events.slice(0, 3));
    const snapshot = JSON.stringify(before);
    applyRunEvent(before, events[3]);
    expect(JSON.stringify(before)).toBe(snapshot);
  });

  it('places events whose parents were not seen yet (a replay that starts mid-run)', () => {
    const orphan = reduceRunEvents(emptyRunTree(), [
      { type: 'request-start', runId: 'run_B', path: [...B, '2:1'], time: 5, requestId: '2:1#1' },
    ]);
    const rows = flattenRunTree(orphan).map(({ node: row }) => row.key);
    expect(rows).toEqual([
      runKey(A),
      callKey(A, '1:1'),
      runKey(B),
      callKey(B, '2:1'),
      requestKey([...B, '2:1'], '2:1#1'),
    ]);
    expect(node<CallNode>(orphan, callKey(B, '2:1')).started).toBe(false);
  });

  it('keeps the messages a request-start carries (runs started with events: { messages: true })', () => {
    const messages = [{ role: 'system' as const, content: 'be brief' }];
    const withMessages = applyRunEvent(emptyRunTree(), {
      type: 'request-start',
      runId: 'run_A',
      path: A,
      time: 1,
      requestId: 'run_A#1',
      messages,
    });
    expect(withMessages.messages['run_A#1']).toEqual(messages);
  });

  it('keeps the rendered messages of each request', () => {
    const messages = [{ role: 'user' as const, content: '<data>x</data>' }];
    expect(applyRequestMessages(tree, '1:0#1', messages).messages['1:0#1']).toEqual(messages);
  });
});

describe('run status', () => {
  const ended = (stopReason: string, error?: { code: string; message: string }) =>
    rootStatus(
      reduceRunEvents(emptyRunTree(), [
        { type: 'run-start', runId: 'r', path: ['r'], time: 1 },
        { type: 'run-end', runId: 'r', path: ['r'], time: 2, stopReason, error },
      ]),
    );

  it('names a finished run as the run store does', () => {
    expect(ended('output')).toBe('completed');
    expect(ended('no_calls')).toBe('completed');
    expect(ended('awaiting_approval')).toBe('awaiting_approval');
    expect(ended('max_turns')).toBe('stopped');
    expect(ended('cancelled')).toBe('cancelled');
    expect(ended('error', { code: 'X', message: 'boom' })).toBe('failed');
    expect(rootStatus(emptyRunTree())).toBe('waiting');
  });
});

describe('approvals', () => {
  const stopped = reduceRunEvents(emptyRunTree(), [
    { type: 'run-start', runId: 'run_A', path: A, time: 1, chain: [], resumed: false },
    {
      type: 'approval-requested',
      runId: 'run_A',
      path: A,
      time: 2,
      calls: [
        { callId: '1:0', tool: 'pay', params: { amount: 5 } },
        { callId: '1:1', tool: 'pay', params: { amount: 6 } },
      ],
    },
    {
      type: 'run-end',
      runId: 'run_A',
      path: A,
      time: 3,
      stopReason: 'awaiting_approval',
      output: null,
      usage: runUsage,
    },
  ]);

  it('lists the Calls a stopped run waits on', () => {
    expect(rootStatus(stopped)).toBe('awaiting_approval');
    expect(pendingApprovals(stopped).map((call) => call.callId)).toEqual(['1:0', '1:1']);
  });

  it('clears them when the resumed run runs or rejects them and finishes', () => {
    const resumed = reduceRunEvents(stopped, [
      { type: 'run-start', runId: 'run_A', path: A, time: 10, chain: [], resumed: true },
      {
        type: 'call-start',
        runId: 'run_A',
        path: A,
        time: 11,
        callId: '1:0',
        tool: 'pay',
        params: { amount: 5 },
      },
    ]);
    expect(rootStatus(resumed)).toBe('running');
    expect(pendingApprovals(resumed)).toEqual([]);
    const finished = reduceRunEvents(resumed, [
      {
        type: 'call-end',
        runId: 'run_A',
        path: A,
        time: 12,
        callId: '1:0',
        tool: 'pay',
        output: 'paid',
      },
      {
        type: 'call-end',
        runId: 'run_A',
        path: A,
        time: 13,
        callId: '1:1',
        tool: 'pay',
        error: { code: 'CALL_REJECTED', message: 'no' },
      },
      {
        type: 'run-end',
        runId: 'run_A',
        path: A,
        time: 14,
        stopReason: 'output',
        output: 'ok',
        usage: runUsage,
      },
    ]);
    expect(rootStatus(finished)).toBe('completed');
    expect(node<CallNode>(finished, callKey(A, '1:1')).status).toBe('error');
    expect(flattenRunTree(finished).filter(({ node: row }) => row.kind === 'run')).toHaveLength(1);
  });
});

describe('waterfall', () => {
  it('has one bar per request and Call, placed by event times', () => {
    const tree = reduceRunEvents(emptyRunTree(), events);
    const waterfall = buildWaterfall(tree, 99_999);
    expect(waterfall.totalMs).toBe(30);
    expect(waterfall.bars).toHaveLength(7);
    const first = waterfall.bars[0];
    expect(first).toMatchObject({ kind: 'request', startMs: 1, durationMs: 9, depth: 1 });
    expect(first.leftPercent).toBeCloseTo((1 / 30) * 100);
    expect(first.widthPercent).toBeCloseTo((9 / 30) * 100);
    const call = waterfall.bars[1];
    expect(call).toMatchObject({
      kind: 'call',
      label: 'summarize 1:0',
      startMs: 3,
      durationMs: 20,
    });
  });

  it('runs what is still running up to now', () => {
    const tree = reduceRunEvents(emptyRunTree(), events.slice(0, 4));
    const waterfall = buildWaterfall(tree, 1050);
    expect(waterfall.totalMs).toBe(50);
    expect(waterfall.bars.map((bar) => bar.durationMs)).toEqual([49, 47]);
    expect(buildWaterfall(emptyRunTree(), 0)).toEqual({ totalMs: 0, bars: [] });
  });

  it('formats durations', () => {
    expect(formatDuration(340)).toBe('340 ms');
    expect(formatDuration(1240)).toBe('1.2 s');
    expect(formatDuration(125_000)).toBe('2 min 5 s');
  });
});
