import type { McpTransportKind } from '../../errors/mcp-connection.error';
import type { McpSdkClient } from '../mcp-sdk-types';

/** A connected MCP client and what errors need to name its server. @internal */
export interface McpConnection {
  /** The SDK's connected Client (typed structurally: the SDK is an optional dependency). */
  client: McpSdkClient;
  /** The server's name for errors. */
  server: string;
  /** The transport that connected. */
  transport: McpTransportKind;
  /** The end of what a stdio server wrote to stderr ('' for HTTP), quoted in connection errors. */
  stderrTail(): string;
}
