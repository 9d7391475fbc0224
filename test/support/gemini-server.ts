/**
 * A local Gemini API server for tests (127.0.0.1, ephemeral port), speaking the wire format of
 * https://ai.google.dev/api/generate-content: `POST /v1beta/models/{model}:generateContent` answered
 * with a `GenerateContentResponse` (candidates with content parts, `finishReason`, `usageMetadata`
 * with `cachedContentTokenCount` and `thoughtsTokenCount`), and
 * `…:streamGenerateContent?alt=sse` answered as Server-Sent Events of partial responses. Thoughts are
 * parts with `thought: true`. Errors use Google's `{ error: { code, message, status } }` body with any
 * headers. Every request is recorded.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** One scripted reply of the fake Gemini server. */
export interface GeminiReply {
  /** HTTP status (default 200). */
  status?: number;
  headers?: Record<string, string>;
  /** Google's status name of an error (`RESOURCE_EXHAUSTED`, `UNAUTHENTICATED`, …). */
  errorStatus?: string;
  errorMessage?: string;
  /** The answer, JSON-encoded into the text part. */
  json?: unknown;
  /** A raw text answer instead of `json`. */
  text?: string;
  /** A thought summary part before the answer. */
  thought?: string;
  /** `finishReason` (default `STOP`). */
  finishReason?: string;
  /** Usage reported (defaults: 30 prompt, 10 candidates). */
  usage?: { prompt?: number; candidates?: number; cached?: number; thoughts?: number };
  /** Streamed replies: characters per chunk (default 8). */
  chunkSize?: number;
  /** Streamed replies: stop after this many chunks and keep the connection open. */
  stallAfterChunks?: number;
}

/** A request as the server received it. */
export interface GeminiRequest {
  /** e.g. `/v1beta/models/gemini-2.5-flash:generateContent`. */
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: Record<string, unknown>;
  closedEarly: Promise<void>;
}

/** A running fake Gemini server. */
export interface GeminiServer {
  /** The base URL for `createGoogleGenerativeAI({ baseURL })`: `http://127.0.0.1:<port>/v1beta`. */
  readonly baseURL: string;
  readonly requests: GeminiRequest[];
  push(...replies: GeminiReply[]): void;
  close(): Promise<void>;
}

/** Starts the server; replies are consumed in order (a request beyond them gets HTTP 500). */
export async function startGeminiServer(script: GeminiReply[] = []): Promise<GeminiServer> {
  const replies = [...script];
  const requests: GeminiRequest[] = [];
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
    const path = request.url ?? '';
    requests.push({ path, headers: request.headers, body, closedEarly });
    const reply = replies.shift();
    const status = reply === undefined ? 500 : (reply.status ?? 200);
    if (reply === undefined || status !== 200) {
      response.writeHead(status, { 'content-type': 'application/json', ...reply?.headers });
      response.end(
        JSON.stringify({
          error: {
            code: status,
            message: reply?.errorMessage ?? 'script exhausted',
            status: reply?.errorStatus ?? 'INTERNAL',
          },
        }),
      );
      return;
    }
    const answer = reply.text ?? JSON.stringify(reply.json ?? {});
    const usageMetadata = {
      promptTokenCount: reply.usage?.prompt ?? 30,
      candidatesTokenCount: reply.usage?.candidates ?? 10,
      ...(reply.usage?.cached === undefined ? {} : { cachedContentTokenCount: reply.usage.cached }),
      ...(reply.usage?.thoughts === undefined ? {} : { thoughtsTokenCount: reply.usage.thoughts }),
      totalTokenCount:
        (reply.usage?.prompt ?? 30) +
        (reply.usage?.candidates ?? 10) +
        (reply.usage?.thoughts ?? 0),
    };
    const finishReason = reply.finishReason ?? 'STOP';
    const modelVersion = /models\/([^:]+):/.exec(path)?.[1] ?? 'unknown';
    if (!path.includes(':streamGenerateContent')) {
      const parts = [
        ...(reply.thought === undefined ? [] : [{ text: reply.thought, thought: true }]),
        { text: answer },
      ];
      response.writeHead(200, { 'content-type': 'application/json', ...reply.headers });
      response.end(
        JSON.stringify({
          candidates: [{ content: { role: 'model', parts }, finishReason, index: 0 }],
          usageMetadata,
          modelVersion,
        }),
      );
      return;
    }
    response.writeHead(200, { 'content-type': 'text/event-stream', ...reply.headers });
    const size = Math.max(1, reply.chunkSize ?? 8);
    const chunks: Array<Record<string, unknown>> = [];
    if (reply.thought !== undefined) chunks.push({ text: reply.thought, thought: true });
    for (let start = 0; start < answer.length; start += size) {
      chunks.push({ text: answer.slice(start, start + size) });
    }
    for (const [index, part] of chunks.entries()) {
      if (reply.stallAfterChunks !== undefined && index >= reply.stallAfterChunks) return;
      const last = index === chunks.length - 1;
      const data = {
        candidates: [
          {
            content: { role: 'model', parts: [part] },
            index: 0,
            ...(last ? { finishReason } : {}),
          },
        ],
        ...(last ? { usageMetadata } : {}),
        modelVersion,
      };
      response.write(`data: ${JSON.stringify(data)}\r\n\r\n`);
      await new Promise((resolve) => setImmediate(resolve));
    }
    response.end();
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1beta`,
    requests,
    push: (...more) => replies.push(...more),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
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
