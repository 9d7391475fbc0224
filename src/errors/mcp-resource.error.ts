import { ExecutionError } from './execution.error';

/** An MCP server could not read a resource (`resources/read` failed): names the server and the URI. */
export class McpResourceError extends ExecutionError {
  static override readonly code = 'MCP_RESOURCE_ERROR';

  /** The server as configured: its command line or its URL (or the `name` given). */
  readonly server: string;
  /** The resource URI that could not be read. */
  readonly uri: string;
  /** What the server said. */
  readonly reason: string;

  constructor(options: { server: string; uri: string; reason: string; cause?: unknown }) {
    super({
      message:
        `MCP server "${options.server}" could not read resource "${options.uri}": ${options.reason}. ` +
        'Check the URI against the server’s resources (`resources/list`) and that it may read it.',
      cause: options.cause,
    });
    this.server = options.server;
    this.uri = options.uri;
    this.reason = options.reason;
  }
}
