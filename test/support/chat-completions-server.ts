/**
 * A local Chat Completions server for tests (127.0.0.1, ephemeral port): replies from a script,
 * records every request's method, path, headers and JSON body. Speaks enough of the protocol for the
 * official `openai` client: choices (n), usage with cached tokens, refusals, finish_reason, errors
 * with headers (Retry-After), delays and dropped connections.
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
}

/** A request as the server received it. */
export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  /** The parsed JSON body (undefined when not JSON). */
  body: Record<string, unknown>;
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
