import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { McpSdkClient } from '../mcp-sdk-types';
import type { McpConnection } from './mcp-connection';

export type { McpConnection } from './mcp-connection';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { McpConnectionError } from '../../errors/mcp-connection.error';
import { isStdioServer, serverLabel, type McpServerConfig } from './mcp-server-config';
import { mcpClient, mcpSseClient, mcpStdioClient, mcpStreamableHttpClient } from '../mcp-sdk';

/** What needs the SDK here (named by MissingPackageError when it is not installed). */

/** What {@link connectMcpClient} needs besides the server. @internal */
export interface ConnectOptions {
  /** Called when the server announces `notifications/tools/list_changed`. */
  onToolsChanged?: () => void;
}

/** How much of a stdio server's stderr is kept for error messages. */
const STDERR_TAIL = 2000;

/**
 * Connects the official SDK's Client to `server`: stdio for a command; for a URL Streamable HTTP,
 * then SSE when the server answers Streamable HTTP's POST with a 4xx (servers older than the
 * 2025-03-26 protocol). The SDK loads here, on first use. Throws McpConnectionError naming the server.
 * @internal
 */
export async function connectMcpClient(
  server: McpServerConfig,
  options: ConnectOptions = {},
): Promise<McpConnection> {
  const label = serverLabel(server);
  const { Client: ClientClass } = mcpClient();
  const newClient = (): Client =>
    new ClientClass(
      { name: 'ideact', version: ideactVersion() },
      {
        capabilities: {},
        ...(options.onToolsChanged === undefined
          ? {}
          : {
              // Refetched by the toolset itself (autoRefresh off), so it can tell when it is done.
              listChanged: {
                tools: {
                  autoRefresh: false,
                  debounceMs: 0,
                  onChanged: () => options.onToolsChanged?.(),
                },
              },
            }),
      },
    );

  if (isStdioServer(server)) {
    const { StdioClientTransport } = mcpStdioClient();
    const transport = new StdioClientTransport({
      command: server.command,
      args: server.args,
      env: server.env,
      cwd: server.cwd,
      stderr: 'pipe',
    });
    let tail = '';
    transport.stderr?.on('data', (chunk: Buffer | string) => {
      tail = (tail + chunk.toString()).slice(-STDERR_TAIL);
    });
    const client = newClient();
    try {
      await client.connect(transport);
    } catch (error) {
      await closeQuietly(client, transport);
      const stderr = tail.trim();
      throw new McpConnectionError({
        server: label,
        transport: 'stdio',
        reason: describeError(error) + (stderr === '' ? '' : ` (stderr: ${stderr})`),
        cause: error,
      });
    }
    return { client: sdkClient(client), server: label, transport: 'stdio', stderrTail: () => tail };
  }

  const url = new URL(server.url);
  const requestInit = server.headers === undefined ? undefined : { headers: server.headers };
  const { StreamableHTTPClientTransport, StreamableHTTPError } = mcpStreamableHttpClient();
  const streamable = new StreamableHTTPClientTransport(url, { requestInit });
  const client = newClient();
  try {
    await client.connect(streamable);
    return {
      client: sdkClient(client),
      server: label,
      transport: 'streamable-http',
      stderrTail: () => '',
    };
  } catch (error) {
    await closeQuietly(client, streamable);
    const status = error instanceof StreamableHTTPError ? error.code : undefined;
    // A 4xx means something answers there but not with Streamable HTTP: try the old SSE transport.
    if (status === undefined || status < 400 || status >= 500) {
      throw new McpConnectionError({
        server: label,
        transport: 'streamable-http',
        reason: describeError(error),
        cause: error,
      });
    }
  }
  const { SSEClientTransport } = mcpSseClient();
  const sse = new SSEClientTransport(url, { requestInit });
  const sseClient = newClient();
  try {
    await sseClient.connect(sse);
  } catch (error) {
    await closeQuietly(sseClient, sse);
    throw new McpConnectionError({
      server: label,
      transport: 'sse',
      reason: `Streamable HTTP was refused with a 4xx status, and SSE failed too: ${describeError(error)}`,
      cause: error,
    });
  }
  return { client: sdkClient(sseClient), server: label, transport: 'sse', stderrTail: () => '' };
}

/**
 * An error's message with the first `code` of its cause chain (fetch's "fetch failed" says little
 * without ECONNREFUSED). Duck-typed: errors from another realm (undici's) fail `instanceof Error`.
 * @internal
 */
export function describeError(error: unknown): string {
  const message = (error as { message?: unknown } | null)?.message;
  if (typeof message !== 'string') return String(error);
  const own = (error as { code?: unknown }).code;
  let cause = (error as { cause?: unknown }).cause;
  for (let depth = 0; depth < 4 && typeof cause === 'object' && cause !== null; depth += 1) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === 'string' && code !== own) return `${message.replace(/\.$/, '')} (${code})`;
    cause = (cause as { cause?: unknown }).cause;
  }
  return message.replace(/\.$/, '');
}

async function closeQuietly(client: Client, transport: Transport): Promise<void> {
  try {
    await client.close();
  } catch {
    // Already broken: nothing to release but the transport.
  }
  try {
    await transport.close();
  } catch {
    // Closing a transport that never opened may throw; it holds nothing then.
  }
}

let version: string | undefined;

/** ideact's version from its package.json, told to servers in the handshake (`0.0.0` if unreadable). */
function ideactVersion(): string {
  if (version === undefined) {
    try {
      const file = path.join(__dirname, '..', '..', '..', 'package.json');
      version = (JSON.parse(readFileSync(file, 'utf8')) as { version?: string }).version ?? '0.0.0';
    } catch {
      version = '0.0.0';
    }
  }
  return version;
}

/** The SDK's Client as ideact's API shows it (structurally: the SDK is an optional dependency). */
function sdkClient(client: Client): McpSdkClient {
  return client as unknown as McpSdkClient;
}
