import { ExecutionError } from './execution.error';

/** How ideact talks to an MCP server: a child process's stdin/stdout, Streamable HTTP or (old servers) SSE. */
export type McpTransportKind = 'stdio' | 'streamable-http' | 'sse';

/**
 * An MCP server could not be reached or dropped the connection: the command does not start, nothing
 * listens at the URL, the handshake failed, or the process exited during a Call. Names the server.
 */
export class McpConnectionError extends ExecutionError {
  static override readonly code = 'MCP_CONNECTION';

  /** The server as configured: its command line or its URL (or the `name` given). */
  readonly server: string;
  /** The transport that failed. */
  readonly transport: McpTransportKind;
  /** What went wrong, in a few words (from the transport's error). */
  readonly reason: string;
  /** The MCP tool whose Call found the connection gone, if any. */
  readonly toolName?: string;

  constructor(options: {
    server: string;
    transport: McpTransportKind;
    reason: string;
    /** The MCP tool being called when the connection was lost. */
    toolName?: string;
    cause?: unknown;
  }) {
    const fix =
      options.transport === 'stdio'
        ? 'Check that the command exists and starts (run it in a shell), that its args are right and that it speaks MCP on stdin/stdout; its stderr is quoted above when it wrote any.'
        : 'Check the URL and that the server runs and serves MCP there (Streamable HTTP, or SSE for old servers), and the headers (e.g. a token) it needs.';
    const during =
      options.toolName === undefined ? '' : ` while calling tool "${options.toolName}"`;
    super({
      message: `MCP server "${options.server}" (${options.transport})${during}: ${options.reason}. ${fix}`,
      cause: options.cause,
    });
    this.server = options.server;
    this.transport = options.transport;
    this.reason = options.reason;
    if (options.toolName !== undefined) this.toolName = options.toolName;
  }
}
