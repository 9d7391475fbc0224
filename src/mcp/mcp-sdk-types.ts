/**
 * What ideact's public API shows of the MCP SDK's objects, as structural types of its own (issue 29):
 * the SDK is an optional dependency, so a program that does not install it must still type-check
 * against ideact's declarations (no `Cannot find module '@modelcontextprotocol/sdk'`). The SDK's
 * real objects satisfy these; cast to the SDK's own types (`client as unknown as Client`) for the
 * rest of their API.
 */

/** A JSON-RPC message as a transport carries it. */
export type McpMessage = Record<string, unknown>;

/** An MCP transport (the SDK's `Transport`: stdio, Streamable HTTP, in-memory …). */
export interface McpTransport {
  start(): Promise<void>;
  send(message: McpMessage, options?: Record<string, unknown>): Promise<void>;
  close(): Promise<void>;
  onclose?(): void;
  onerror?(error: Error): void;
  onmessage?(message: McpMessage, extra?: Record<string, unknown>): void;
  sessionId?: string;
}

/** The SDK's low-level `Server` that `createMcpServer` builds: connect it to a transport, close it. */
export interface McpSdkServer {
  connect(transport: McpTransport): Promise<void>;
  close(): Promise<void>;
  /** Called when its connection closes. */
  onclose?(): void;
  /** Tells the connected client that the tool list changed. */
  sendToolListChanged(): Promise<void>;
}

/** The SDK's `Client` that `mcpTools` connects: what ideact uses of it, and `close()`. */
export interface McpSdkClient {
  listTools(
    params?: Record<string, unknown>,
    options?: Record<string, unknown>,
  ): Promise<{ tools: unknown[]; nextCursor?: string }>;
  readResource(
    params: { uri: string },
    options?: Record<string, unknown>,
  ): Promise<{ contents: unknown[] }>;
  close(): Promise<void>;
  /** The transport it is connected through. */
  readonly transport?: unknown;
}

/** A tool as MCP's `tools/list` answers it. */
export interface McpToolDefinition {
  name: string;
  title?: string;
  description?: string;
  inputSchema: { type: 'object'; properties?: Record<string, unknown>; [key: string]: unknown };
  outputSchema?: { type: 'object'; properties?: Record<string, unknown>; [key: string]: unknown };
  annotations?: Record<string, unknown>;
  _meta?: Record<string, unknown>;
  [key: string]: unknown;
}
