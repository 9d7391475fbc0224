/* eslint-disable @typescript-eslint/no-explicit-any -- the tests read API answers as loose JSON */
import { startPlayground, type PlaygroundFixture } from './support/start-playground';
import { http, readEventStream, waitFor } from './support/http-client';

/**
 * Issue 20: approvals from the playground (a run stopped at awaiting_approval lists its
 * interruptions; decisions resume it under its id) and history that survives a restart.
 */
let fixture: PlaygroundFixture;
let restarted: PlaygroundFixture | undefined;
beforeAll(async () => {
  fixture = await startPlayground();
});
afterAll(async () => {
  await restarted?.cleanup();
  await fixture.cleanup();
});

async function settled(url: string, runId: string): Promise<any> {
  return waitFor(async () => {
    const answer = await http(url, `/api/runs/${runId}`);
    return answer.json.run.status === 'running' ? undefined : answer.json;
  });
}

async function startRun(tool: string, params: object): Promise<string> {
  const answer = await http(fixture.url, '/api/runs', { method: 'POST', body: { tool, params } });
  expect(answer.status).toBe(202);
  return answer.json.runId;
}

describe('approvals', () => {
  it('R-LOOP-4 stops at awaiting_approval with the interruption, and approve resumes it to completed', async () => {
    const runId = await startRun('deleteRecord', { id: 'r-7' });
    const first = await readEventStream(fixture.url, `/api/runs/${runId}/events`);
    expect(first.at(-1)!.event).toBe('end');
    const runEnd = first.filter((item) => item.data.type === 'run-end');
    expect(runEnd).toEqual([
      expect.objectContaining({
        data: expect.objectContaining({ stopReason: 'awaiting_approval' }),
      }),
    ]);
    const waiting = await settled(fixture.url, runId);
    expect(waiting.run.status).toBe('awaiting_approval');
    expect(waiting.interruptions).toEqual([
      { callId: '0:0', tool: 'deleteRecord', params: { id: 'r-7' } },
    ]);
    // The Call did not run.
    expect(waiting.events.some((event: any) => event.type === 'call-end')).toBe(false);

    const unknown = await http(fixture.url, `/api/runs/${runId}/decisions`, {
      method: 'POST',
      body: { decisions: { '9:9': { approve: true } } },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.json.error.code).toBe('UNKNOWN_CALL');
    const malformed = await http(fixture.url, `/api/runs/${runId}/decisions`, {
      method: 'POST',
      body: { decisions: { '0:0': { approve: 'yes' } } },
    });
    expect(malformed.status).toBe(400);
    expect(malformed.json.error.path).toBe('/decisions/0:0');

    const decided = await http(fixture.url, `/api/runs/${runId}/decisions`, {
      method: 'POST',
      body: { decisions: { '0:0': { approve: true } } },
    });
    expect(decided.status).toBe(202);
    const continued = await readEventStream(fixture.url, `/api/runs/${runId}/events`);
    const events = continued.filter((item) => item.event === 'run-event').map((item) => item.data);
    // The new stream replays the first segment, then the continuation under the same run id: the
    // run started new (issue 27 item 11) and was resumed once.
    expect(
      events.filter((event) => event.type === 'run-start').map((event) => event.resumed),
    ).toEqual([false, true]);
    expect(events.find((event) => event.type === 'call-end')).toMatchObject({
      callId: '0:0',
      output: { deleted: 'r-7' },
    });
    const done = await settled(fixture.url, runId);
    expect(done.run.status).toBe('completed');
    expect(done.interruptions).toBeUndefined();
    const again = await http(fixture.url, `/api/runs/${runId}/decisions`, {
      method: 'POST',
      body: { decisions: { '0:0': { approve: true } } },
    });
    expect(again.status).toBe(409);
  });

  it('reject feeds the reason as the Call result and the one-Call run ends failed', async () => {
    const runId = await startRun('deleteRecord', { id: 'r-8' });
    await readEventStream(fixture.url, `/api/runs/${runId}/events`);
    await http(fixture.url, `/api/runs/${runId}/decisions`, {
      method: 'POST',
      body: { decisions: { '0:0': { reject: 'keep it' } } },
    });
    await readEventStream(fixture.url, `/api/runs/${runId}/events`);
    const done = await settled(fixture.url, runId);
    expect(done.run.status).toBe('failed');
    const end = done.events.find((event: any) => event.type === 'call-end');
    expect(end.error.code).toBe('CALL_REJECTED');
    expect(end.error.message).toContain('keep it');
  });
});

describe('approvals in an agent run', () => {
  it('R-LOOP-4 resumes the agent after approval; the resumed turn gets a request id of its own', async () => {
    const runId = await startRun('cleaner', {});
    await readEventStream(fixture.url, `/api/runs/${runId}/events`);
    const waiting = await settled(fixture.url, runId);
    expect(waiting.run.status).toBe('awaiting_approval');
    expect(waiting.interruptions).toEqual([
      { callId: expect.stringMatching(/^\d+:0$/), tool: 'deleteRecord', params: { id: 'old-1' } },
    ]);
    const callId = waiting.interruptions[0].callId;
    const decided = await http(fixture.url, `/api/runs/${runId}/decisions`, {
      method: 'POST',
      body: { decisions: { [callId]: { approve: true } } },
    });
    expect(decided.status).toBe(202);
    await readEventStream(fixture.url, `/api/runs/${runId}/events`);
    const done = await settled(fixture.url, runId);
    expect(done.run.status).toBe('completed');
    expect(done.events.at(-1)).toMatchObject({ type: 'run-end', output: { cleaned: true } });
    const requestIds = done.events
      .filter((event: any) => event.type === 'request-start')
      .map((event: any) => event.requestId);
    expect(requestIds).toEqual([`${runId}#1`, `${runId}#1~2`]);
    expect(Object.keys(done.requests)).toEqual(requestIds);
    // The second turn's messages hold the approved Call's result.
    const second = done.requests[`${runId}#1~2`].messages;
    expect(second.map((message: any) => message.content).join('\n')).toContain('old-1');
    const ends = done.events.filter((event: any) => event.type === 'request-end');
    expect(ends.map((event: any) => event.requestId)).toEqual(requestIds);
  });
});

describe('a new run is not a resumed one (issue 27 item 11)', () => {
  it.each([
    ['a Tool run (one Call on a state made for it)', 'order', orderParams()],
    ['an agent Idea run', 'planner', { goal: 'new runs' }],
  ])('%s: its first event is run-start with resumed: false', async (_label, tool, params) => {
    const runId = await startRun(tool, params);
    const stream = await readEventStream(fixture.url, `/api/runs/${runId}/events`);
    const events = stream.filter((item) => item.event === 'run-event').map((item) => item.data);
    expect(events[0]).toMatchObject({ type: 'run-start', runId, resumed: false });
    expect(events.filter((event) => event.type === 'run-start')).toHaveLength(1);
    const done = await settled(fixture.url, runId);
    expect(done.run.status).toBe('completed');
    expect(done.events[0]).toMatchObject({ type: 'run-start', resumed: false });
  });
});

function orderParams(): object {
  return { size: 'S', address: { street: 'Main 1', city: 'Oslo' }, items: ['logo'] };
}

describe('history', () => {
  it('lists runs newest first, with tool, status, duration and tokens, also after a restart on the same store', async () => {
    const waiting = await startRun('deleteRecord', { id: 'after-restart' });
    await readEventStream(fixture.url, `/api/runs/${waiting}/events`);
    const planner = await startRun('planner', { goal: 'history' });
    await readEventStream(fixture.url, `/api/runs/${planner}/events`);
    const before = await settled(fixture.url, planner);
    const list = (await http(fixture.url, '/api/runs')).json.runs;
    expect(list[1]).toMatchObject({ runId: waiting, status: 'awaiting_approval' });
    expect(list[0]).toMatchObject({ runId: planner, tool: 'planner', status: 'completed' });
    expect(list[0].tokens.total).toBeGreaterThan(0);
    expect(list[0].tokens.total).toBe(list[0].tokens.input + list[0].tokens.output);
    expect(typeof list[0].durationMs).toBe('number');
    expect(Date.parse(list[0].startedAt)).not.toBeNaN();

    await fixture.close();
    restarted = await startPlayground({ storeDir: fixture.storeDir });
    const after = (await http(restarted.url, '/api/runs')).json.runs;
    expect(after.map((run: any) => run.runId)).toEqual(list.map((run: any) => run.runId));
    expect(after[0]).toEqual(list[0]);
    // The run's events and request messages come back from the playground's log.
    const detail = (await http(restarted.url, `/api/runs/${planner}`)).json;
    expect(detail.events).toEqual(before.events);
    expect(detail.requests).toEqual(before.requests);
    expect(Object.keys(detail.requests).length).toBeGreaterThanOrEqual(3);
    const replay = await readEventStream(restarted.url, `/api/runs/${planner}/events`);
    expect(replay.at(-1)!.event).toBe('end');
    expect(replay.filter((item) => item.event === 'run-event')).toHaveLength(before.events.length);
    expect((await http(restarted.url, '/api/runs/run_unknown1')).status).toBe(404);

    // A run that waited for approval before the restart is approved and finished by the new server.
    expect(after.find((run: any) => run.runId === waiting)).toMatchObject({
      tool: 'deleteRecord',
      status: 'awaiting_approval',
    });
    const decided = await http(restarted.url, `/api/runs/${waiting}/decisions`, {
      method: 'POST',
      body: { decisions: { '0:0': { approve: true } } },
    });
    expect(decided.status).toBe(202);
    await readEventStream(restarted.url, `/api/runs/${waiting}/events`);
    const done = await settled(restarted.url, waiting);
    expect(done.run.status).toBe('completed');
    expect(done.events.find((event: any) => event.type === 'call-end').output).toEqual({
      deleted: 'after-restart',
    });
  });
});
