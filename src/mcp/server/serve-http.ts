import { randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { mcpStreamableHttpServer, mcpTypes } from '../mcp-sdk';
import type { McpHttpEndpoint, McpHttpOptions } from './mcp-http-options';

export type { McpHttpEndpoint, McpHttpOptions } from './mcp-http-options';

const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;
const LOOPBACK_HOSTNAMES = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/**
 * Serves MCP over Streamable HTTP on node:http: one SDK Server and transport per session (made by
 * `createServer`, on the client's `initialize`), the session named by the `mcp-session-id` header.
 * Checks Origin (403) then the bearer token (401) before the SDK sees a request.
 */
export async function serveHttp(
  newServer: () => Server,
  options: McpHttpOptions = {},
): Promise<McpHttpEndpoint> {
  const endpointPath = options.path ?? '/mcp';
  const host = options.host ?? '127.0.0.1';
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const allowedOrigins = new Set(options.allowedOrigins ?? []);
  const expectedToken = options.token === undefined ? undefined : Buffer.from(options.token);
  const sessions = new Map<string, { transport: StreamableHTTPServerTransport; server: Server }>();

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (url.pathname !== endpointPath) {
      return reject(response, 404, `Not found: the MCP endpoint is ${endpointPath}.`);
    }
    const origin = request.headers.origin;
    if (origin !== undefined && !isAllowedOrigin(origin, allowedOrigins)) {
      return reject(
        response,
        403,
        `Forbidden origin ${origin}: this MCP server accepts loopback origins only; start it with --allowed-origin to add one.`,
      );
    }
    if (expectedToken !== undefined && !hasToken(request, expectedToken)) {
      response.setHeader('WWW-Authenticate', 'Bearer');
      return reject(
        response,
        401,
        'Unauthorized: send the token given to `ideact mcp serve --token` as `Authorization: Bearer <token>`.',
      );
    }

    const sessionId = request.headers['mcp-session-id'];
    if (typeof sessionId === 'string') {
      const session = sessions.get(sessionId);
      if (session === undefined) {
        return reject(response, 404, `Unknown MCP session ${sessionId}: initialize a new one.`);
      }
      const body =
        request.method === 'POST' ? await readJsonBody(request, maxBodyBytes) : undefined;
      if (body instanceof BodyError) return reject(response, body.status, body.message);
      return session.transport.handleRequest(request, response, body);
    }
    if (request.method !== 'POST') {
      return reject(response, 400, 'Bad request: send an initialize request first (no session).');
    }
    const body = await readJsonBody(request, maxBodyBytes);
    if (body instanceof BodyError) return reject(response, body.status, body.message);
    if (!mcpTypes().isInitializeRequest(body)) {
      return reject(
        response,
        400,
        'Bad request: no mcp-session-id; the first request must be initialize.',
      );
    }
    const server = newServer();
    const { StreamableHTTPServerTransport: Transport } = mcpStreamableHttpServer();
    const transport: StreamableHTTPServerTransport = new Transport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        sessions.set(id, { transport, server });
      },
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
    };
    await server.connect(transport);
    await transport.handleRequest(request, response, body);
  };

  const httpServer = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) {
        reject(
          response,
          500,
          `Internal error: ${error instanceof Error ? error.message : String(error)}`,
        );
      } else {
        response.end();
      }
    });
  });
  await new Promise<void>((resolve, rejectListen) => {
    httpServer.once('error', rejectListen);
    httpServer.listen(options.port ?? 0, host, () => {
      httpServer.off('error', rejectListen);
      resolve();
    });
  });
  const port = (httpServer.address() as AddressInfo).port;
  const urlHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: new URL(`http://${urlHost}:${port}${endpointPath}`),
    port,
    async close() {
      for (const { server } of [...sessions.values()]) await server.close();
      sessions.clear();
      httpServer.closeAllConnections();
      await new Promise<void>((resolve) => httpServer.close(() => resolve()));
    },
  };
}

/** True for a loopback origin (any port) or one listed in `allowed`. */
function isAllowedOrigin(origin: string, allowed: ReadonlySet<string>): boolean {
  if (allowed.has(origin) || allowed.has('*')) return true;
  try {
    const url = new URL(origin);
    return (
      (url.protocol === 'http:' || url.protocol === 'https:') &&
      LOOPBACK_HOSTNAMES.has(url.hostname)
    );
  } catch {
    return false;
  }
}

/** True when the request carries `Authorization: Bearer <expected>` (compared in constant time). */
function hasToken(request: IncomingMessage, expected: Buffer): boolean {
  const header = request.headers.authorization;
  const match = typeof header === 'string' ? /^Bearer\s+(.+)$/i.exec(header.trim()) : null;
  if (match === null) return false;
  const given = Buffer.from(match[1]);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** A request body that could not be read as JSON: the status to answer with and why. */
class BodyError {
  constructor(
    readonly status: number,
    readonly message: string,
  ) {}
}

/** Reads and parses a JSON body of at most `maxBytes`. */
async function readJsonBody(request: IncomingMessage, maxBytes: number): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > maxBytes) return new BodyError(413, `Request body larger than ${maxBytes} bytes.`);
    chunks.push(buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
  } catch (error) {
    return new BodyError(
      400,
      `Parse error: the body is not JSON (${error instanceof Error ? error.message : String(error)}).`,
    );
  }
}

/** Answers with a JSON-RPC error body (what MCP clients expect) and an HTTP status. */
function reject(response: ServerResponse, status: number, message: string): void {
  response.writeHead(status, { 'Content-Type': 'application/json' });
  response.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}
