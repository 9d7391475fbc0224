import type { McpTransportKind } from '../../errors/mcp-connection.error';

/** An MCP server ideact starts as a child process and talks to over its stdin/stdout. */
export interface McpStdioServer {
  /** The program, e.g. `process.execPath` or `npx`. */
  command: string;
  /** Its arguments. */
  args?: string[];
  /**
   * Extra environment variables, added to the SDK's safe default set (HOME, PATH, USER, …): the
   * server does not see the rest of this process's environment (e.g. API keys) unless given here.
   */
  env?: Record<string, string>;
  /** Its working directory (default: this process's). */
  cwd?: string;
  /** How errors name the server (default: the command line). */
  name?: string;
}

/** An MCP server that listens at a URL: Streamable HTTP, or SSE for servers older than 2025-03-26. */
export interface McpHttpServer {
  /** The MCP endpoint, e.g. `http://127.0.0.1:3001/mcp`. */
  url: string | URL;
  /** Headers sent with every request, e.g. `{ Authorization: 'Bearer …' }`. */
  headers?: Record<string, string>;
  /** How errors name the server (default: the URL). */
  name?: string;
}

/** Where an MCP server is: a command to start (stdio) or a URL (Streamable HTTP, falling back to SSE). */
export type McpServerConfig = McpStdioServer | McpHttpServer;

/** True for a server ideact starts as a child process. */
export function isStdioServer(server: McpServerConfig): server is McpStdioServer {
  return typeof (server as McpStdioServer).command === 'string';
}

/** The name errors give `server`: its `name`, else its command line or URL. @internal */
export function serverLabel(server: McpServerConfig): string {
  if (server.name !== undefined && server.name !== '') return server.name;
  if (isStdioServer(server)) return [server.command, ...(server.args ?? [])].join(' ');
  return String(server.url);
}

/** The transport ideact tries first for `server`. @internal */
export function firstTransport(server: McpServerConfig): McpTransportKind {
  return isStdioServer(server) ? 'stdio' : 'streamable-http';
}
