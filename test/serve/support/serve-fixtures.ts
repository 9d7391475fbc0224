import { promises as fs } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  createAgent,
  createRunHandler,
  FileRunStore,
  toNodeListener,
  type Agent,
  type RunEvent,
  type RunHandler,
  type RunHandlerOptions,
  type ToolSchema,
} from 'ideact';
import { ScriptedProvider } from 'ideact/testing';

/**
 * What the serve tests share (issue 32): an agent whose scripted model acts out a few tasks, a run
 * handler over a FileRunStore in a temp folder, mounted on node:http at 127.0.0.1 (real HTTP), and
 * readers of server-sent events.
 */

export const weatherTool: ToolSchema = {
  type: 'object',
  description: 'Current weather of a city.',
  properties: { _tool: { const: 'weather' }, city: { type: 'string' } },
  required: ['_tool', 'city'],
};

export const deleteTool: ToolSchema = {
  type: 'object',
  description: 'Deletes a file (a person approves it first).',
  needsApproval: true,
  properties: { _tool: { const: 'deleteFile' }, path: { type: 'string' } },
  required: ['_tool', 'path'],
} as ToolSchema;

/** The tasks the scripted model acts out (anything else: the hello answer). */
export const TASKS = {
  hello: 'say hello',
  weather: 'weather in Paris, please',
  delete: 'please delete notes.txt',
  slow: 'a slow answer, please',
};

/** Why the model calls `weather` (its `_reasoningForCall`, streamed as reasoning). */
export const REASONING = 'The user asks about the weather in Paris, so I look it up.';

/** The answers of the scripted model, by task. */
export const ANSWERS = {
  hello: 'Hello! This answer streams to the page a few characters at a time.',
  weather: 'It is sunny in Paris.',
  deleted: 'The file is gone.',
  slow: 'A slow answer, written piece by piece so that a client can leave and come back. '.repeat(
    3,
  ),
};

/** The model: acts out `hello`, `weather` (a Call, then an answer), `delete` (a Call that needs approval), `slow`. */
export function scriptedModel(
  options: { delayMs?: number; chunkSize?: number } = {},
): ScriptedProvider {
  return new ScriptedProvider(
    (request) => {
      const task = request.messages.map((message) => String(message.content)).join('\n');
      const hasResult = task.includes('## Result of');
      if (task.includes(TASKS.weather)) {
        return hasResult
          ? { calls: [], output: ANSWERS.weather }
          : {
              calls: [{ _tool: 'weather', _reasoningForCall: REASONING, city: 'Paris' }],
              output: null,
            };
      }
      if (task.includes(TASKS.delete)) {
        return hasResult
          ? { calls: [], output: ANSWERS.deleted }
          : { calls: [{ _tool: 'deleteFile', path: 'notes.txt' }], output: null };
      }
      if (task.includes(TASKS.slow)) return { calls: [], output: ANSWERS.slow };
      return { calls: [], output: ANSWERS.hello };
    },
    { stream: { chunkSize: options.chunkSize ?? 6, delayMs: options.delayMs ?? 2 } },
  );
}

/** Side effects of the approval Tool (a Call that ran without approval would show here). */
export const deleted: string[] = [];

/** The agent the tests serve. */
export function servedAgent(options: { delayMs?: number; chunkSize?: number } = {}): Agent {
  return createAgent({
    tools: [weatherTool, deleteTool],
    activities: [
      {
        weather: (params: Record<string, unknown>) => ({ city: params.city, sky: 'sun' }),
        deleteFile: (params: Record<string, unknown>) => {
          deleted.push(String(params.path));
          return { deleted: params.path };
        },
      },
    ],
    provider: scriptedModel(options),
  });
}

/** A handler mounted on node:http at 127.0.0.1. */
export interface ServedApp {
  url: string;
  handler: RunHandler;
  dir: string;
  store: FileRunStore;
  close(): Promise<void>;
}

/** Serves `agent` (default: {@link servedAgent}) with `options` over real HTTP. */
export async function serveApp(
  options: RunHandlerOptions & { agent?: Agent; dir?: string } = {},
): Promise<ServedApp> {
  const dir = options.dir ?? (await fs.mkdtemp(path.join(os.tmpdir(), 'ideact-serve-')));
  const store = new FileRunStore({ dir });
  const agent = options.agent ?? servedAgent();
  const handler = createRunHandler(agent, { store, onError: () => undefined, ...options });
  await handler.ready();
  const server: Server = createServer(toNodeListener(handler));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    handler,
    dir,
    store,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await handler.close();
      await store.close();
      await agent.dispose();
    },
  };
}

/** One server-sent event as read: its id, and its data parsed as JSON (raw for `[DONE]`). */
export interface SseMessage {
  id?: string;
  data: unknown;
}

/**
 * Reads a response's server-sent events until the stream ends, or `stopAfter` events arrived / says
 * stop (then the connection is dropped: a client that goes away).
 */
export async function readSse(
  response: Response,
  stopAfter: number | ((messages: SseMessage[]) => boolean) = Number.POSITIVE_INFINITY,
): Promise<SseMessage[]> {
  const enough =
    typeof stopAfter === 'number'
      ? (messages: SseMessage[]) => messages.length >= stopAfter
      : stopAfter;
  const messages: SseMessage[] = [];
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  while (!enough(messages)) {
    const { done, value } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let end: number;
    while ((end = buffer.indexOf('\n\n')) !== -1 && !enough(messages)) {
      const frame = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let id: string | undefined;
      const data: string[] = [];
      for (const line of frame.split('\n')) {
        if (line.startsWith('id: ')) id = line.slice(4);
        else if (line.startsWith('data: ')) data.push(line.slice(6));
      }
      if (data.length === 0) continue;
      const text = data.join('\n');
      messages.push({
        ...(id === undefined ? {} : { id }),
        data: text === '[DONE]' ? text : JSON.parse(text),
      });
    }
  }
  await reader.cancel().catch(() => undefined);
  return messages;
}

/** The run events of an SSE stream of `/runs/:id/events`, with their ids as numbers. */
export function runEvents(messages: SseMessage[]): Array<{ id: number; event: RunEvent }> {
  return messages.map((message) => ({ id: Number(message.id), event: message.data as RunEvent }));
}

/** Polls `GET /runs/:id` until the run is no longer running. */
export async function settled(
  url: string,
  runId: string,
  headers: Record<string, string> = {},
): Promise<Record<string, unknown>> {
  for (let attempt = 0; attempt < 400; attempt++) {
    const response = await fetch(`${url}/runs/${runId}`, { headers });
    const body = (await response.json()) as Record<string, unknown>;
    if (body.status !== 'running') return body;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`run ${runId} did not settle`);
}
