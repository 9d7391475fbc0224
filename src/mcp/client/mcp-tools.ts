import { connectMcpClient } from './connect-mcp-client';
import type { McpServerConfig } from './mcp-server-config';
import { McpToolset, type McpToolsOptions } from './mcp-toolset';

/**
 * Connects to an MCP server and returns its tools as a Toolset for `tools` of `createAgent`,
 * `createContainer` or `new Executor` (R-CALL-5: a tool's failure is a Call error the model sees).
 * The list follows the server's `tools/list_changed`. Throws McpConnectionError naming the server.
 */
export async function mcpTools(
  server: McpServerConfig,
  options: McpToolsOptions = {},
): Promise<McpToolset> {
  // A list_changed during the handshake finds no toolset yet: the first listing below covers it.
  const created: { toolset?: McpToolset } = {};
  const connection = await connectMcpClient(server, {
    onToolsChanged: () => void created.toolset?.refresh().catch(() => undefined),
  });
  const toolset = new McpToolset(connection, options);
  created.toolset = toolset;
  try {
    await toolset.refresh();
  } catch (error) {
    await toolset.close().catch(() => undefined);
    throw error;
  }
  return toolset;
}
