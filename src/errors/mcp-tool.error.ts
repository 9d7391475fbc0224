import { ExecutionError } from './execution.error';

/**
 * An MCP tool's Call failed on the server: it answered `isError` (its text is the reason), refused
 * the request (a JSON-RPC error), gave no answer in time, or broke its own output contract. As a
 * Call's result the model sees it (R-CALL-5). Names the server and the tool.
 */
export class McpToolError extends ExecutionError {
  static override readonly code = 'MCP_TOOL_ERROR';

  /** The server as configured: its command line or its URL (or the `name` given). */
  readonly server: string;
  /** The tool's name on the MCP server (without ideact's `prefix`). */
  readonly toolName: string;
  /** What the server said (an `isError` result's text, a JSON-RPC error's message) or what went wrong. */
  readonly reason: string;
  /** True when the tool itself reported the failure (`isError: true`), not the protocol. */
  readonly isToolError: boolean;

  constructor(options: {
    server: string;
    toolName: string;
    reason: string;
    /** True for an `isError` result. */
    isToolError?: boolean;
    cause?: unknown;
  }) {
    const isToolError = options.isToolError ?? false;
    const fix = isToolError
      ? 'Check the arguments of the Call against the tool’s description; the tool explains its failure above.'
      : 'Check the arguments against the tool’s inputSchema and that the server still offers the tool; raise `timeoutMs` of mcpTools() for a slow tool.';
    super({
      message: `MCP tool "${options.toolName}" of server "${options.server}" failed: ${options.reason}. ${fix}`,
      cause: options.cause,
    });
    this.server = options.server;
    this.toolName = options.toolName;
    this.reason = options.reason;
    this.isToolError = isToolError;
  }
}
