import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  createAgent,
  createRunHandler,
  FileRunStore,
  type Provider,
  type ProviderResponse,
} from 'ideact';
import { readSse } from './support/serve-fixtures';

/**
 * Issue 32 item 2 with issue 30's reasoning: a model that returns its reasoning (`reasoning-delta`
 * events) shows it as a reasoning part on the AI SDK's stream and as a reasoning message on AG-UI's,
 * before the answer.
 */
function thinkingProvider(): Provider {
  const replies: ProviderResponse[] = [
    {
      options: [{ calls: [], output: 'sunny' }],
      usage: { inputTokens: 10, outputTokens: 5, cachedTokens: 0 },
      reasoning: [[{ text: 'Look outside first.' }]],
    },
  ];
  return { name: 'thinking', generate: () => Promise.resolve(replies.shift()!) };
}

let directory: string;
beforeAll(async () => {
  directory = await fs.mkdtemp(path.join(os.tmpdir(), 'ideact-serve-reasoning-'));
});
afterAll(async () => {
  await fs.rm(directory, { recursive: true, force: true });
});

async function post(route: string, body: unknown): Promise<Array<Record<string, unknown>>> {
  const agent = createAgent({ tools: [], provider: thinkingProvider() });
  const handler = createRunHandler(agent, {
    store: new FileRunStore({ dir: directory }),
    onError: () => undefined,
  });
  try {
    const response = await handler(
      new Request(`http://127.0.0.1${route}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }),
    );
    const messages = await readSse(response);
    return messages
      .map((message) => message.data)
      .filter((data): data is Record<string, unknown> => typeof data === 'object');
  } finally {
    await handler.close();
    await agent.dispose();
  }
}

it("the AI SDK stream carries the model's reasoning as a reasoning part that opens before the answer's text", async () => {
  const chunks = await post('/chat', {
    id: 'chat-thinking',
    messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Weather?' }] }],
  });
  const types = chunks.map((chunk) => chunk.type);
  const reasoning = chunks
    .filter((chunk) => chunk.type === 'reasoning-delta')
    .map((chunk) => chunk.delta)
    .join('');
  expect(reasoning).toBe('Look outside first.');
  expect(types.indexOf('reasoning-start')).toBeLessThan(types.indexOf('reasoning-delta'));
  expect(types.indexOf('reasoning-start')).toBeLessThan(types.indexOf('text-start'));
  expect(types.indexOf('reasoning-end')).toBeLessThan(types.indexOf('finish'));
  expect(chunks.filter((chunk) => chunk.type === 'text-delta').map((chunk) => chunk.delta)).toEqual(
    ['sunny'],
  );
});

it("AG-UI carries the model's reasoning as a reasoning message that opens before the text", async () => {
  const events = await post('/ag-ui', {
    threadId: 'thread-thinking',
    runId: 'agui-1',
    messages: [{ id: 'u1', role: 'user', content: 'Weather?' }],
    tools: [],
    context: [],
  });
  const types = events.map((event) => event.type);
  expect(
    events
      .filter((event) => event.type === 'REASONING_MESSAGE_CONTENT')
      .map((event) => event.delta),
  ).toEqual(['Look outside first.']);
  expect(types.indexOf('REASONING_START')).toBeLessThan(types.indexOf('REASONING_MESSAGE_START'));
  expect(types.indexOf('REASONING_START')).toBeLessThan(types.indexOf('TEXT_MESSAGE_START'));
  expect(types.indexOf('REASONING_END')).toBeLessThan(types.indexOf('RUN_FINISHED'));
  expect(types[types.length - 1]).toBe('RUN_FINISHED');
});
