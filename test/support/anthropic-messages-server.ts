/**
 * A local Anthropic Messages API server for tests (127.0.0.1, ephemeral port), speaking the wire
 * format of https://docs.anthropic.com/en/api/messages: `POST /v1/messages` answered as a JSON
 * message or, for `stream: true`, as Server-Sent Events (`message_start`, `content_block_start`,
 * `content_block_delta` with `text_delta` / `thinking_delta` / `signature_delta` / `input_json_delta`,
 * `content_block_stop`, `message_delta`, `message_stop`, `ping`). A reply holds optional thinking
 * (with its signature) and the JSON answer, sent as text when the request asks for
 * `output_config.format`, or as a `tool_use` of the `json` tool when the request forces that tool
 * (the AI SDK's tool-based JSON mode). Errors use Anthropic's `{ type: 'error', error: { type,
 * message } }` body with any headers (retry-after). Every request is recorded.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** One scripted reply of the fake Anthropic server. */
export interface AnthropicReply {
  /** HTTP status (default 200). */
  status?: number;
  /** Extra response headers (`retry-after`, …). */
  headers?: Record<string, string>;
  /** Anthropic's error type for a non-2xx reply (`rate_limit_error`, `authentication_error`, …). */
  errorType?: string;
  /** The error message of a non-2xx reply. */
  errorMessage?: string;
  /** The answer, JSON-encoded into the text block (or the `json` tool's input). */
  json?: unknown;
  /** A raw text answer instead of `json`. */
  text?: string;
  /** A thinking block before the answer. */
  thinking?: { thinking: string; signature: string };
  /** `stop_reason` (default `end_turn`, or `tool_use` for the json tool). */
  stopReason?: string;
  /** Usage reported (defaults: 20 input, 10 output, no cache). */
  usage?: { input?: number; output?: number; cacheRead?: number; cacheWrite?: number };
  /** Streamed replies: characters per delta (default 8). */
  chunkSize?: number;
  /** Streamed replies: wait before each delta (ms). */
  chunkDelayMs?: number;
  /** Streamed replies: stop after this many deltas and keep the connection open. */
  stallAfterChunks?: number;
}

/** A request as the server received it. */
export interface AnthropicRequest {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: Record<string, unknown>;
  /** Resolves when the client closed the connection before the reply ended. */
  closedEarly: Promise<void>;
}

/** A running fake Anthropic server. */
export interface AnthropicServer {
  /** The base URL for `createAnthropic({ baseURL })` / `ANTHROPIC_BASE_URL`: `http://127.0.0.1:<port>/v1`. */
  readonly baseURL: string;
  readonly requests: AnthropicRequest[];
  push(...replies: AnthropicReply[]): void;
  close(): Promise<void>;
}

/** Starts the server; replies are consumed in order (a request beyond them gets HTTP 500). */
export async function startAnthropicServer(
  script: AnthropicReply[] = [],
): Promise<AnthropicServer> {
  const replies = [...script];
  const requests: AnthropicRequest[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((request, response) => {
    void handle(request, response);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const text = await readBody(request);
    let closed!: () => void;
    const closedEarly = new Promise<void>((resolve) => (closed = resolve));
    response.on('close', () => {
      if (!response.writableFinished) closed();
    });
    const body = text === '' ? {} : (JSON.parse(text) as Record<string, unknown>);
    requests.push({ path: request.url ?? '', headers: request.headers, body, closedEarly });
    const reply = replies.shift();
    if (reply === undefined) {
      sendError(response, 500, {}, 'api_error', 'script exhausted');
      return;
    }
    const status = reply.status ?? 200;
    if (status !== 200) {
      sendError(
        response,
        status,
        reply.headers ?? {},
        reply.errorType ?? 'api_error',
        reply.errorMessage ?? 'error',
      );
      return;
    }
    const blocks = contentBlocks(reply, body);
    const usage = {
      input_tokens: reply.usage?.input ?? 20,
      output_tokens: reply.usage?.output ?? 10,
      cache_read_input_tokens: reply.usage?.cacheRead ?? 0,
      cache_creation_input_tokens: reply.usage?.cacheWrite ?? 0,
    };
    const stopReason =
      reply.stopReason ??
      (blocks.some((block) => block.type === 'tool_use') ? 'tool_use' : 'end_turn');
    const message = {
      id: `msg_${requests.length}`,
      type: 'message',
      role: 'assistant',
      model: String(body.model),
      content: blocks,
      stop_reason: stopReason,
      stop_sequence: null,
      usage,
    };
    if (body.stream !== true) {
      response.writeHead(200, { 'content-type': 'application/json', ...reply.headers });
      response.end(JSON.stringify(message));
      return;
    }
    await stream(response, reply, message, blocks, usage, stopReason);
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    push: (...more) => replies.push(...more),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

type Block = Record<string, unknown> & { type: string };

/** The answer's blocks: thinking first, then text (output_config) or the json tool's tool_use. */
function contentBlocks(reply: AnthropicReply, body: Record<string, unknown>): Block[] {
  const blocks: Block[] = [];
  if (reply.thinking !== undefined) {
    blocks.push({
      type: 'thinking',
      thinking: reply.thinking.thinking,
      signature: reply.thinking.signature,
    });
  }
  const answer = reply.text ?? JSON.stringify(reply.json ?? {});
  const toolChoice = body.tool_choice as { type?: string; name?: string } | undefined;
  const tools = (body.tools as Array<{ name?: string }> | undefined) ?? [];
  const forcedJsonTool =
    tools.some((tool) => tool.name === 'json') &&
    (toolChoice?.type === 'any' || (toolChoice?.type === 'tool' && toolChoice.name === 'json'));
  if (forcedJsonTool && reply.text === undefined) {
    blocks.push({ type: 'tool_use', id: 'toolu_1', name: 'json', input: reply.json ?? {} });
  } else {
    blocks.push({ type: 'text', text: answer });
  }
  return blocks;
}

async function stream(
  response: ServerResponse,
  reply: AnthropicReply,
  message: Record<string, unknown>,
  blocks: Block[],
  usage: Record<string, number>,
  stopReason: string,
): Promise<void> {
  response.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    ...reply.headers,
  });
  const send = (event: string, data: unknown): void => {
    response.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  };
  const size = Math.max(1, reply.chunkSize ?? 8);
  let deltas = 0;
  send('message_start', {
    type: 'message_start',
    message: { ...message, content: [], stop_reason: null, usage: { ...usage, output_tokens: 1 } },
  });
  send('ping', { type: 'ping' });
  for (const [index, block] of blocks.entries()) {
    const pieces: Array<Record<string, unknown>> = [];
    let start: Record<string, unknown>;
    if (block.type === 'thinking') {
      start = { type: 'thinking', thinking: '', signature: '' };
      for (const piece of split(String(block.thinking), size))
        pieces.push({ type: 'thinking_delta', thinking: piece });
      pieces.push({ type: 'signature_delta', signature: block.signature });
    } else if (block.type === 'tool_use') {
      start = { type: 'tool_use', id: block.id, name: block.name, input: {} };
      for (const piece of split(JSON.stringify(block.input), size))
        pieces.push({ type: 'input_json_delta', partial_json: piece });
    } else {
      start = { type: 'text', text: '' };
      for (const piece of split(String(block.text), size))
        pieces.push({ type: 'text_delta', text: piece });
    }
    send('content_block_start', { type: 'content_block_start', index, content_block: start });
    for (const delta of pieces) {
      if (reply.stallAfterChunks !== undefined && deltas >= reply.stallAfterChunks) return;
      if (reply.chunkDelayMs !== undefined)
        await new Promise((resolve) => setTimeout(resolve, reply.chunkDelayMs));
      if (response.destroyed) return;
      send('content_block_delta', { type: 'content_block_delta', index, delta });
      deltas++;
    }
    send('content_block_stop', { type: 'content_block_stop', index });
  }
  send('message_delta', {
    type: 'message_delta',
    delta: { stop_reason: stopReason, stop_sequence: null },
    usage: { output_tokens: usage.output_tokens },
  });
  send('message_stop', { type: 'message_stop' });
  response.end();
}

function split(text: string, size: number): string[] {
  const pieces: string[] = [];
  for (let start = 0; start < text.length; start += size)
    pieces.push(text.slice(start, start + size));
  return pieces.length > 0 ? pieces : [''];
}

function sendError(
  response: ServerResponse,
  status: number,
  headers: Record<string, string>,
  type: string,
  message: string,
): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify({ type: 'error', error: { type, message } }));
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (text += chunk));
    request.on('end', () => resolve(text));
    request.on('error', reject);
  });
}
