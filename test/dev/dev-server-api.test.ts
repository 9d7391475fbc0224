/* eslint-disable @typescript-eslint/no-explicit-any -- the tests read API answers as loose JSON */
import { startPlayground, GLOSSARY, type PlaygroundFixture } from './support/start-playground';
import { http, readEventStream, waitFor } from './support/http-client';

/** Issue 20: the playground's JSON API and event streams over real HTTP on 127.0.0.1. */
let fixture: PlaygroundFixture;
beforeAll(async () => {
  fixture = await startPlayground();
});
afterAll(async () => {
  await fixture.cleanup();
});

async function finished(runId: string): Promise<any> {
  return waitFor(async () => {
    const answer = await http(fixture.url, `/api/runs/${runId}`);
    return answer.json.run.status === 'running' ? undefined : answer.json;
  });
}

describe('GET /api/info and /api/tools', () => {
  it('names the provider, the store and the ideas folder', async () => {
    const answer = await http(fixture.url, '/api/info');
    expect(answer.status).toBe(200);
    expect(answer.json.provider).toEqual({ name: 'scripted', offline: false });
    expect(answer.json.store).toEqual({ kind: 'file', location: fixture.storeDir });
    expect(answer.json.ideasDir).toBe(fixture.ideasDir);
  });

  it('lists the container Tools and the Ideas with kind, module and agent flag', async () => {
    const { json } = await http(fixture.url, '/api/tools');
    const byName = Object.fromEntries(json.tools.map((tool: any) => [tool.name, tool]));
    expect(Object.keys(byName).sort()).toEqual([
      'cleaner',
      'deleteRecord',
      'order',
      'planner',
      'summarize',
    ]);
    expect(byName.order).toMatchObject({ kind: 'explicit', source: 'container', agent: false });
    expect(byName.summarize).toMatchObject({
      kind: 'latent',
      module: 'summarize.json',
      source: 'container',
    });
    expect(byName.planner).toMatchObject({ source: 'idea', file: 'planner.json', agent: true });
  });

  it('gives a Tool its params schema (meta-fields left out) and an Idea its input schema', async () => {
    const order = await http(fixture.url, '/api/tools/order');
    expect(order.json.inputSchema.properties.size).toEqual({
      type: 'string',
      enum: ['S', 'M', 'L'],
      default: 'M',
      description: 'Shirt size.',
    });
    expect(order.json.inputSchema.required).toEqual(['size', 'address', 'items']);
    expect(Object.keys(order.json.inputSchema.properties)).not.toContain('_tool');
    const planner = await http(fixture.url, '/api/tools/planner');
    expect(planner.json.inputSchema.required).toEqual(['goal']);
    expect(planner.json.outputSchema).toEqual({
      type: 'object',
      properties: { plan: { type: 'string' } },
      required: ['plan'],
    });
    expect((await http(fixture.url, '/api/tools/nothing')).status).toBe(404);
  });
});

describe('POST /api/runs', () => {
  it('refuses params the runtime would refuse: 400 naming the field', async () => {
    const answer = await http(fixture.url, '/api/runs', {
      method: 'POST',
      body: { tool: 'order', params: { size: 'XL', address: { street: 'Main' }, items: [] } },
    });
    expect(answer.status).toBe(400);
    expect(answer.json.error.code).toBe('INVALID_PARAMS');
    const paths = answer.json.error.issues.map((issue: any) => issue.path);
    expect(paths).toEqual(expect.arrayContaining(['/size', '/address', '/items']));
    expect(answer.json.error.message).toContain('/size');
  });

  it('runs a Tool as one Call: call-start, call-end with the output, run-end, stored as completed', async () => {
    const params = { size: 'L', address: { street: 'Main 1', city: 'Oslo' }, items: ['cat'] };
    const answer = await http(fixture.url, '/api/runs', {
      method: 'POST',
      body: { tool: 'order', params },
    });
    expect(answer.status).toBe(202);
    const runId = answer.json.runId;
    const events = await readEventStream(fixture.url, `/api/runs/${runId}/events`);
    expect(events.at(-1)).toEqual({ event: 'end', data: {} });
    const types = events.filter((item) => item.event === 'run-event').map((item) => item.data.type);
    expect(types).toEqual(
      expect.arrayContaining(['run-start', 'call-start', 'call-end', 'run-end']),
    );
    const end = events.find((item) => item.data.type === 'call-end')!.data;
    expect(end).toMatchObject({ tool: 'order', output: { orderId: 'A-1', ...params } });
    const detail = await finished(runId);
    expect(detail.run).toMatchObject({ runId, tool: 'order', status: 'completed' });
  });

  it('streams an agent Idea: a Call starts before its request ends, messages follow request-start', async () => {
    const answer = await http(fixture.url, '/api/runs', {
      method: 'POST',
      body: { tool: 'planner', params: { goal: 'ship it' } },
    });
    expect(answer.status).toBe(202);
    const runId = answer.json.runId;
    const items = await readEventStream(fixture.url, `/api/runs/${runId}/events`);
    const events = items.filter((item) => item.event === 'run-event').map((item) => item.data);
    const firstRequest = events.find((event) => event.type === 'request-start')!;
    const callStart = events.findIndex((event) => event.type === 'call-start');
    const firstEnd = events.findIndex(
      (event) => event.type === 'request-end' && event.requestId === firstRequest.requestId,
    );
    expect(callStart).toBeGreaterThan(-1);
    expect(callStart).toBeLessThan(firstEnd);
    expect(events.some((event) => event.type === 'solution-delta')).toBe(true);
    // request-messages right after each request-start, and never inside the run events.
    items.forEach((item, index) => {
      if (item.event === 'run-event' && item.data.type === 'request-start') {
        expect(item.data.messages).toBeUndefined();
        expect(items[index + 1]).toMatchObject({
          event: 'request-messages',
          data: { requestId: item.data.requestId },
        });
      }
    });
    const detail = await finished(runId);
    expect(detail.run.status).toBe('completed');
    expect(detail.events.at(-1)).toMatchObject({
      type: 'run-end',
      output: { plan: 'Summarized, then planned.' },
    });
    // The module sub-request's messages are exactly what the provider got, data message included.
    const moduleStart = detail.events.find(
      (event: any) => event.type === 'request-start' && event.schemaName === 'summarize',
    );
    const messages = detail.requests[moduleStart.requestId].messages;
    const sent = fixture.provider.requests.find((request) =>
      request.messages.some((message) => message.content.includes('You are a summarizer.')),
    )!;
    expect(messages).toEqual(sent.messages.map(({ role, content }) => ({ role, content })));
    expect(messages.map((message: any) => message.content).join('\n')).toContain(GLOSSARY.vessel);
  });
});
