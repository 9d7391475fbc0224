/**
 * A local Chat Completions server for tests (127.0.0.1, ephemeral port): replies from a script,
 * records every request's method, path, headers and JSON body. Speaks enough of the protocol for the
 * official `openai` client: choices (n), usage with cached tokens, refusals, finish_reason, errors
 * with headers (Retry-After), delays and dropped connections. A request with `stream: true` is answered
 * as Server-Sent Events (`data: {chunk}` per delta, a usage chunk, `data: [DONE]`).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** One choice of a scripted completion. */
export interface ScriptedChoice {
  /** The assistant's text (null for a pure refusal). A non-string value is JSON-encoded. */
  content?: unknown;
  /** A refusal text (`message.refusal`). */
  refusal?: string;
  /** Default `stop`. */
  finishReason?: 'stop' | 'length' | 'content_filter' | 'tool_calls';
}

/** One scripted HTTP reply. */
export interface ScriptedReply {
  /** HTTP status (default 200). */
  status?: number;
  /** Extra response headers, e.g. `{ 'retry-after': '2' }`. */
  headers?: Record<string, string>;
  /** Wait this long before answering (ms). */
  delayMs?: number;
  /** Close the connection without answering. */
  destroy?: boolean;
  /** Shorthand for one choice whose content is this JSON value (JSON-encoded). */
  json?: unknown;
  /** Shorthand for one choice with this raw text. */
  text?: string;
  /** The choices of a 200 completion; overrides `json`/`text`. */
  choices?: ScriptedChoice[];
  /** Usage reported (defaults: 10 prompt, 5 completion, 0 cached). */
  usage?: { promptTokens?: number; completionTokens?: number; cachedTokens?: number };
  /** The error message of a non-2xx reply (wrapped as OpenAI's `{ error: { message } }`). */
  errorMessage?: string;
  /** A raw JSON body sent as is (overrides everything but status/headers). */
  body?: unknown;
  /** Streamed replies: characters of content per SSE chunk (default 4). */
  chunkSize?: number;
  /** Streamed replies: wait this long before each content chunk (ms). */
  chunkDelayMs?: number;
  /** Streamed replies: send only this many content chunks, then keep the connection open silently. */
  stallAfterChunks?: number;
}

/** A request as the server received it. */
export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  /** The parsed JSON body (undefined when not JSON). */
  body: Record<string, unknown>;
  /** Resolves when the client closed the connection before the reply was complete (an abort). */
  closedEarly: Promise<void>;
}

/** Computes the reply of the `index`-th request. */
export type ReplyFunction = (request: RecordedRequest, index: number) => ScriptedReply;

/** A running test server. */
export interface ChatCompletionsServer {
  /** Base URL for `OPENAI_BASE_URL` / the `baseURL` option, e.g. `http://127.0.0.1:54321/v1`. */
  readonly baseURL: string;
  /** Every request received, in order. */
  readonly requests: RecordedRequest[];
  /** Adds replies to the end of the script. */
  push(...replies: ScriptedReply[]): void;
  /** Stops the server and drops open connections. */
  close(): Promise<void>;
}

/**
 * Starts a server on 127.0.0.1 answering `POST /v1/chat/completions` from `script` (a list consumed
 * in order, or a function of the request). A request beyond the list gets HTTP 500 "script exhausted".
 */
export async function startChatCompletionsServer(
  script: ScriptedReply[] | ReplyFunction = [],
): Promise<ChatCompletionsServer> {
  const queue: ScriptedReply[] = Array.isArray(script) ? [...script] : [];
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();

  const server: Server = createServer((incoming, response) => {
    void handle(incoming, response);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  async function handle(incoming: IncomingMessage, response: ServerResponse): Promise<void> {
    const text = await readBody(incoming);
    let body: Record<string, unknown> = {};
    try {
      body = JSON.parse(text) as Record<string, unknown>;
    } catch {
      // keep {} for non-JSON bodies
    }
    const recorded: RecordedRequest = {
      method: incoming.method ?? '',
      path: incoming.url ?? '',
      headers: { ...incoming.headers },
      body,
      closedEarly: new Promise<void>((resolve) => {
        response.on('close', () => {
          if (!response.writableFinished) resolve();
        });
      }),
    };
    const index = requests.length;
    requests.push(recorded);
    const reply: ScriptedReply = Array.isArray(script)
      ? (queue.shift() ?? { status: 500, errorMessage: `script exhausted at request #${index}` })
      : script(recorded, index);
    if (reply.delayMs !== undefined && reply.delayMs > 0) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          timers.delete(timer);
          resolve();
        }, reply.delayMs);
        timers.add(timer);
      });
    }
    if (reply.destroy || response.destroyed) {
      response.socket?.destroy();
      return;
    }
    const status = reply.status ?? 200;
    if (status < 400 && reply.body === undefined && body.stream === true) {
      await streamCompletion(reply, body, response, timers);
      return;
    }
    const payload =
      reply.body !== undefined
        ? reply.body
        : status >= 400
          ? {
              error: {
                message: reply.errorMessage ?? `scripted HTTP ${status}`,
                type: 'scripted',
                code: null,
              },
            }
          : completion(reply, body);
    response.writeHead(status, { 'content-type': 'application/json', ...(reply.headers ?? {}) });
    response.end(JSON.stringify(payload));
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    push: (...replies) => {
      queue.push(...replies);
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A base URL on 127.0.0.1 where nothing listens (a port that was just closed). */
export async function closedPortBaseURL(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/v1`;
}

function readBody(incoming: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    incoming.on('error', reject);
  });
}

/** Sends the completion as SSE chunks: per choice the role, content pieces, refusal, finish; then usage. */
async function streamCompletion(
  reply: ScriptedReply,
  body: Record<string, unknown>,
  response: ServerResponse,
  timers: Set<NodeJS.Timeout>,
): Promise<void> {
  const whole = completion(reply, body);
  const choices = whole.choices as Array<{
    index: number;
    message: { content: string | null; refusal: string | null };
    finish_reason: string;
  }>;
  const base = {
    id: 'chatcmpl-test',
    object: 'chat.completion.chunk',
    created: 0,
    model: whole.model,
  };
  const send = (chunk: Record<string, unknown>): void => {
    response.write(`data: ${JSON.stringify({ ...base, ...chunk })}\n\n`);
  };
  response.writeHead(200, { 'content-type': 'text/event-stream', ...(reply.headers ?? {}) });
  for (const choice of choices) {
    send({ choices: [{ index: choice.index, delta: { role: 'assistant', content: '' } }] });
  }
  const size = Math.max(1, reply.chunkSize ?? 4);
  let sent = 0;
  for (const choice of choices) {
    const content = choice.message.content ?? '';
    for (let start = 0; start < content.length; start += size) {
      if (reply.stallAfterChunks !== undefined && sent >= reply.stallAfterChunks) return;
      if (reply.chunkDelayMs !== undefined && reply.chunkDelayMs > 0) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(() => {
            timers.delete(timer);
            resolve();
          }, reply.chunkDelayMs);
          timers.add(timer);
        });
      }
      if (response.destroyed) return;
      send({
        choices: [
          {
            index: choice.index,
            delta: { content: content.slice(start, start + size) },
            finish_reason: null,
          },
        ],
      });
      sent += 1;
    }
    if (choice.message.refusal !== null) {
      send({ choices: [{ index: choice.index, delta: { refusal: choice.message.refusal } }] });
    }
    send({ choices: [{ index: choice.index, delta: {}, finish_reason: choice.finish_reason }] });
  }
  send({ choices: [], usage: whole.usage });
  response.end('data: [DONE]\n\n');
}

function completion(reply: ScriptedReply, body: Record<string, unknown>): Record<string, unknown> {
  const choices: ScriptedChoice[] = reply.choices ?? [
    { content: reply.text !== undefined ? reply.text : JSON.stringify(reply.json) },
  ];
  const usage = reply.usage ?? {};
  return {
    id: 'chatcmpl-test',
    object: 'chat.completion',
    created: 0,
    model: typeof body.model === 'string' ? body.model : 'test-model',
    choices: choices.map((choice, index) => ({
      index,
      message: {
        role: 'assistant',
        content:
          choice.content === undefined || choice.content === null
            ? null
            : typeof choice.content === 'string'
              ? choice.content
              : JSON.stringify(choice.content),
        refusal: choice.refusal ?? null,
      },
      finish_reason: choice.finishReason ?? 'stop',
      logprobs: null,
    })),
    usage: {
      prompt_tokens: usage.promptTokens ?? 10,
      completion_tokens: usage.completionTokens ?? 5,
      total_tokens: (usage.promptTokens ?? 10) + (usage.completionTokens ?? 5),
      prompt_tokens_details: { cached_tokens: usage.cachedTokens ?? 0 },
    },
  };
}

/**
 * Starts local Chat Completions servers for one test file and closes them all after it: call it at
 * the top level of the file, then `await serve(replies)` in each test.
 */
export function serversForThisFile(): (
  replies: ScriptedReply[] | ReplyFunction,
) => Promise<ChatCompletionsServer> {
  const servers: ChatCompletionsServer[] = [];
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.close()));
  });
  return async (replies) => {
    const server = await startChatCompletionsServer(replies);
    servers.push(server);
    return server;
  };
}
