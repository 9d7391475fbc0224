import type { DataMessage } from '../../protocol/message';
import { McpConnectionError, type McpTransportKind } from '../../errors/mcp-connection.error';
import { McpResourceError } from '../../errors/mcp-resource.error';
import { connectMcpClient, describeError } from './connect-mcp-client';
import { toResourceContents } from './mcp-content';
import type { McpServerConfig } from './mcp-server-config';
import { McpToolset } from './mcp-toolset';

/** Options of {@link mcpResources}. */
export interface McpResourcesOptions {
  /** Per read, in milliseconds; default the SDK's 60 000. */
  timeoutMs?: number;
  /** Aborting it cancels the reads under way. */
  signal?: AbortSignal;
}

/**
 * Reads MCP resources (`resources/read`) into data messages for a run's context: one message per
 * content of each URI, `data` = `{ uri, mimeType?, text? | blob? }` (blob = base64), no `kind`
 * (R-DATA-1: each stays its own message), `description` naming the resource and the server.
 * `server` is a server to connect to for the reads (and disconnect after), or an open toolset's.
 */
export async function mcpResources(
  server: McpServerConfig | McpToolset,
  uris: readonly string[],
  options: McpResourcesOptions = {},
): Promise<DataMessage[]> {
  const connection = server instanceof McpToolset ? undefined : await connectMcpClient(server);
  const client = server instanceof McpToolset ? server.client : connection!.client;
  const label = server instanceof McpToolset ? server.server : connection!.server;
  const transport = server instanceof McpToolset ? server.transport : connection!.transport;
  try {
    const messages: DataMessage[] = [];
    for (const uri of uris) {
      let contents: unknown[];
      try {
        const result = await client.readResource(
          { uri },
          {
            signal: options.signal,
            ...(options.timeoutMs === undefined ? {} : { timeout: options.timeoutMs }),
          },
        );
        contents = result.contents;
      } catch (error) {
        throw readError(error, label, uri, transport);
      }
      for (const content of contents) {
        const data = toResourceContents(content);
        messages.push({
          type: 'data',
          data,
          description: `MCP resource ${data.uri} from server "${label}"`,
        });
      }
    }
    return messages;
  } finally {
    if (connection !== undefined) await connection.client.close();
  }
}

function readError(
  error: unknown,
  server: string,
  uri: string,
  transport: McpTransportKind,
): Error {
  const code = (error as { code?: unknown }).code;
  const reason = describeError(error);
  if (code === -32000 || /not connected/i.test(reason)) {
    return new McpConnectionError({
      server,
      transport,
      reason: `reading ${uri}: ${reason}`,
      cause: error,
    });
  }
  return new McpResourceError({ server, uri, reason, cause: error });
}
