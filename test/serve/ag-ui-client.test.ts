import { promises as fs } from 'node:fs';
import { HttpAgent } from '@ag-ui/client';
import { createAgent, type ToolSchema } from 'ideact';
import { ScriptedProvider } from 'ideact/testing';
import {
  ANSWERS,
  deleted,
  REASONING,
  serveApp,
  TASKS,
  type ServedApp,
} from './support/serve-fixtures';

/**
 * Issue 32 item 2: `@ag-ui/client`'s HttpAgent, unchanged, in Node against `POST /ag-ui`: the event
 * sequence of a run with a tool call, of a run stopped by an approval interrupt, and of its resume
 * with the interrupt answered; the output arrives as text and as state deltas (item 3).
 */
const TOKEN = 'ag-ui-token';
let app: ServedApp;

beforeAll(async () => {
  app = await serveApp({ token: TOKEN });
});
afterAll(async () => {
  await app.close();
  await fs.rm(app.dir, { recursive: true, force: true });
});

type AgEvent = { type: string } & Record<string, unknown>;

async function run(
  agent: HttpAgent,
  parameters: Parameters<HttpAgent['runAgent']>[0] = {},
): Promise<{ events: AgEvent[]; result: unknown }> {
  const events: AgEvent[] = [];
  const { result } = await agent.runAgent(parameters, {
    onEvent: ({ event }) => {
      events.push(event as unknown as AgEvent);
    },
  });
  return { events, result };
}

function agentFor(threadId: string, task: string): HttpAgent {
  return new HttpAgent({
    url: `${app.url}/ag-ui`,
    headers: { authorization: `Bearer ${TOKEN}` },
    threadId,
    initialMessages: [{ id: `${threadId}-user`, role: 'user', content: task }],
  });
}

it('a run with a tool call: RUN_STARTED, the tool call with its args and result, the answer as text and state deltas, RUN_FINISHED', async () => {
  const agent = agentFor('thread-weather', TASKS.weather);
  const { events, result } = await run(agent);
  const types = events.map((event) => event.type);
  expect(types[0]).toBe('RUN_STARTED');
  expect(types[types.length - 1]).toBe('RUN_FINISHED');
  const order = [
    'TOOL_CALL_START',
    'TOOL_CALL_ARGS',
    'TOOL_CALL_END',
    'TOOL_CALL_RESULT',
    'TEXT_MESSAGE_START',
    'TEXT_MESSAGE_END',
  ];
  const positions = order.map((type) => types.indexOf(type));
  expect(positions.every((position) => position > 0)).toBe(true);
  expect([...positions].sort((a, b) => a - b)).toEqual(positions);
  expect(events.find((event) => event.type === 'TOOL_CALL_START')).toMatchObject({
    toolCallName: 'weather',
  });
  expect(
    JSON.parse(String(events.find((event) => event.type === 'TOOL_CALL_ARGS')?.delta)),
  ).toEqual({ city: 'Paris' });
  expect(
    JSON.parse(String(events.find((event) => event.type === 'TOOL_CALL_RESULT')?.content)),
  ).toEqual({ city: 'Paris', sky: 'sun' });
  const text = events
    .filter((event) => event.type === 'TEXT_MESSAGE_CONTENT')
    .map((event) => event.delta)
    .join('');
  expect(text).toBe(ANSWERS.weather);
  // The Call's `_reasoningForCall` streams as a reasoning message, before the tool call starts.
  const reasoning = events
    .filter((event) => event.type === 'REASONING_MESSAGE_CONTENT')
    .map((event) => event.delta)
    .join('');
  expect(reasoning).toBe(REASONING);
  expect(types.indexOf('REASONING_START')).toBeLessThan(types.indexOf('TOOL_CALL_START'));
  expect(types.indexOf('REASONING_END')).toBeGreaterThan(types.indexOf('REASONING_MESSAGE_END'));
  expect(types.filter((type) => type === 'STATE_DELTA').length).toBeGreaterThan(1);
  expect(agent.state).toMatchObject({ output: ANSWERS.weather });
  expect(result).toBe(ANSWERS.weather);
  expect(events[events.length - 1]).toMatchObject({ outcome: { type: 'success' } });
  // The client's own message list holds the assistant's answer and the tool call.
  expect(JSON.stringify(agent.messages)).toContain(ANSWERS.weather);
});

it('a Call that needs approval ends the run with an interrupt; resuming with the answer runs it and finishes the thread', async () => {
  const before = deleted.length;
  const agent = agentFor('thread-delete', TASKS.delete);
  const held = await run(agent);
  const finished = held.events[held.events.length - 1];
  expect(finished).toMatchObject({
    type: 'RUN_FINISHED',
    outcome: {
      type: 'interrupt',
      interrupts: [{ id: '1:0', reason: 'tool_approval', toolCallId: '1:0' }],
    },
  });
  expect(held.events.map((event) => event.type)).toEqual(
    expect.arrayContaining(['TOOL_CALL_START', 'TOOL_CALL_ARGS', 'TOOL_CALL_END']),
  );
  expect(held.events.some((event) => event.type === 'TOOL_CALL_RESULT')).toBe(false);
  expect(agent.pendingInterrupts.map((interrupt) => interrupt.id)).toEqual(['1:0']);
  expect(deleted.length).toBe(before);

  const resumed = await run(agent, {
    resume: [{ interruptId: '1:0', status: 'resolved', payload: { approved: true } }],
  });
  const types = resumed.events.map((event) => event.type);
  expect(types[0]).toBe('RUN_STARTED');
  expect(resumed.events.find((event) => event.type === 'TOOL_CALL_RESULT')).toMatchObject({
    toolCallId: '1:0',
  });
  expect(resumed.events[resumed.events.length - 1]).toMatchObject({
    type: 'RUN_FINISHED',
    result: ANSWERS.deleted,
    outcome: { type: 'success' },
  });
  expect(deleted.slice(before)).toEqual(['notes.txt']);
  expect(agent.pendingInterrupts).toEqual([]);
});

it("the run's State, as its Calls write it, reaches the client as a STATE_DELTA before the run finishes", async () => {
  const record: ToolSchema = {
    type: 'object',
    properties: {
      _tool: { const: 'record' },
      name: { type: 'string' },
      _outputPath: { type: 'string' },
    },
    required: ['_tool', 'name'],
  };
  const written = await serveApp({
    token: TOKEN,
    agent: createAgent({
      tools: [record],
      activities: [{ record: (params) => ({ recorded: params.name }) }],
      provider: new ScriptedProvider([
        { calls: [{ _tool: 'record', name: 'first', _outputPath: '†state.notes' }], output: null },
        { calls: [], output: 'noted' },
      ]),
    }),
  });
  try {
    const agent = new HttpAgent({
      url: `${written.url}/ag-ui`,
      headers: { authorization: `Bearer ${TOKEN}` },
      threadId: 'thread-state',
      initialMessages: [{ id: 'thread-state-user', role: 'user', content: 'Record it.' }],
    });
    const { events } = await run(agent);
    const types = events.map((event) => event.type);
    const delta = events.findIndex(
      (event) =>
        event.type === 'STATE_DELTA' &&
        (event.delta as Array<{ path: string }>).some((operation) => operation.path === '/state'),
    );
    expect(delta).toBeGreaterThan(0);
    expect(events[delta]!.delta).toEqual([
      { op: 'replace', path: '/state', value: { notes: { recorded: 'first' } } },
    ]);
    expect(delta).toBeLessThan(types.lastIndexOf('STATE_SNAPSHOT'));
    expect(agent.state).toMatchObject({ output: 'noted', state: { notes: { recorded: 'first' } } });
  } finally {
    await written.close();
    await fs.rm(written.dir, { recursive: true, force: true });
  }
});
