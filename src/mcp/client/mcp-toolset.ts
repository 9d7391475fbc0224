import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult, Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import { McpConnectionError, type McpTransportKind } from '../../errors/mcp-connection.error';
import { McpToolError } from '../../errors/mcp-tool.error';
import type { ToolSchema } from '../../protocol/tool-schema';
import type { ActivityContext, ActivityFunction } from '../../calls/activity';
import type { Toolset } from '../../calls/toolset';
import { describeError } from './connect-mcp-client';
import type { McpConnection } from './mcp-connection';
import type { McpSdkClient } from '../mcp-sdk-types';
import { contentText, toContentBlocks, type McpContentResult } from './mcp-content';
import { outputWrapperOf, toToolSchema } from './mcp-tool-schema';
import { mcpTypes } from '../mcp-sdk';

/** Which of a server's tools become Tools, under which names, and how long a Call may take. */
export interface McpToolsOptions {
  /** Only these MCP tool names (default: all). */
  include?: readonly string[];
  /** Never these MCP tool names (applied after `include`). */
  exclude?: readonly string[];
  /** Put before each tool's name, against clashes with other tools: `fs_` → `fs_read_file`. */
  prefix?: string;
  /** Per Call (and tool listing), in milliseconds; default the SDK's 60 000. The handshake keeps the SDK's. */
  timeoutMs?: number;
}

/** The JSON-RPC error codes of the SDK that mean the connection is gone, not the tool failed. */
const CONNECTION_CLOSED = -32000;
const REQUEST_TIMEOUT = -32001;

/**
 * An MCP server's tools as an ideact {@link Toolset}: one ToolSchema and one Activity per MCP tool,
 * refetched when the server sends `notifications/tools/list_changed`. Give it in `tools` of
 * `createAgent`, `createContainer` or `new Executor`; close it when done (`await using` closes it).
 */
export class McpToolset implements Toolset, AsyncDisposable {
  /** The server's name in errors: its `name`, else its command line or URL. */
  readonly server: string;
  /** The transport that connected: `stdio`, `streamable-http` or `sse`. */
  readonly transport: McpTransportKind;
  /**
   * The connected client of the official MCP SDK, for what ideact does not wrap (prompts, …); typed
   * structurally (the SDK is an optional dependency): `toolset.client as unknown as Client` for the
   * SDK's own type.
   */
  readonly client: McpSdkClient;
  private currentTools: readonly ToolSchema[] = Object.freeze([]);
  private currentActivities: Readonly<Record<string, ActivityFunction>> = Object.freeze({});
  private listedJson = '';
  private pending: Promise<void> = Promise.resolve();
  private lastRefreshError?: unknown;
  private closed = false;

  /** @internal Use {@link mcpTools}, which connects and lists the tools first. */
  constructor(
    private readonly connection: McpConnection,
    private readonly options: McpToolsOptions = {},
  ) {
    this.server = connection.server;
    this.client = connection.client;
    this.transport = connection.transport;
  }
  /** The client with the SDK's own type, for the calls ideact makes. */
  private get sdk(): Client {
    return this.client as unknown as Client;
  }

  /** The tools as now known; a new array after each change of the list (the same one otherwise). */
  get tools(): readonly ToolSchema[] {
    return this.currentTools;
  }

  /** The Activities that call the tools (`tools/call`), by ideact tool name. */
  get activities(): Readonly<Record<string, ActivityFunction>> {
    return this.currentActivities;
  }

  /** The tools' ideact names (with the prefix). */
  get names(): string[] {
    return this.currentTools.map((tool) => String(tool.properties._tool.const));
  }

  /** Settles when the refetch a `tools/list_changed` started (if any) has been applied. */
  settled(): Promise<void> {
    return this.pending;
  }

  /**
   * Fetches the tool list now (after the ones under way); `list_changed` calls it. A failed refetch
   * keeps the last list and rejects; `settled()` does not reject.
   */
  refresh(): Promise<void> {
    const next = this.pending.then(() => this.fetchTools());
    this.pending = next.then(
      () => undefined,
      (error: unknown) => {
        this.lastRefreshError = error;
      },
    );
    return next;
  }

  /** The error of the last failed refetch after `list_changed` (undefined after a good one). */
  get refreshError(): unknown {
    return this.lastRefreshError;
  }

  /** Closes the connection (a stdio server's process ends); Calls after it fail with McpConnectionError. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const transport = this.sdk.transport as { terminateSession?: () => Promise<void> } | undefined;
    try {
      // Streamable HTTP: end the session on the server too (a no-op error for servers without sessions).
      await transport?.terminateSession?.();
    } catch {
      // The server may not support ending sessions (405); closing the client still frees ours.
    }
    await this.sdk.close();
  }

  /** `await using tools = await mcpTools(server)` closes the connection at the end of the scope. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  /** Lists every page of the server's tools and applies the list. */
  private async fetchTools(): Promise<void> {
    const listed: McpTool[] = [];
    let cursor: string | undefined;
    try {
      do {
        const page = await this.sdk.listTools(
          cursor === undefined ? undefined : { cursor },
          this.requestOptions(),
        );
        listed.push(...page.tools);
        cursor = page.nextCursor;
      } while (cursor !== undefined);
    } catch (error) {
      throw new McpConnectionError({
        server: this.server,
        transport: this.connection.transport,
        reason: `listing its tools failed: ${describeError(error)}`,
        cause: error,
      });
    }
    this.lastRefreshError = undefined;
    this.apply(listed);
  }

  /** Takes a listed set of MCP tools in, keeping the arrays when nothing changed. */
  private apply(listed: McpTool[]): void {
    const include = this.options.include === undefined ? undefined : new Set(this.options.include);
    const exclude = new Set(this.options.exclude ?? []);
    const chosen = listed.filter(
      (tool) => (include === undefined || include.has(tool.name)) && !exclude.has(tool.name),
    );
    const json = JSON.stringify(chosen);
    if (json === this.listedJson) return;
    this.listedJson = json;
    const prefix = this.options.prefix ?? '';
    const tools: ToolSchema[] = [];
    const activities: Record<string, ActivityFunction> = {};
    for (const tool of chosen) {
      const name = prefix + tool.name;
      tools.push(toToolSchema(tool, name));
      const output: OutputShape = {
        hasSchema: tool.outputSchema !== undefined,
        wrapper: outputWrapperOf(tool),
      };
      activities[name] = (params, context) => this.callTool(tool.name, params, context, output);
    }
    this.currentTools = Object.freeze(tools);
    this.currentActivities = Object.freeze(activities);
  }

  /**
   * Sends `tools/call`: the `structuredContent` when the tool declares an `outputSchema` (the executor
   * checks it against `_output`), else the content blocks. `isError` and JSON-RPC errors throw
   * McpToolError; a lost connection McpConnectionError. Aborting `context.signal` cancels the request
   * (the SDK sends `notifications/cancelled`).
   */
  private async callTool(
    toolName: string,
    params: Record<string, unknown>,
    context: Pick<ActivityContext, 'signal'>,
    shape: OutputShape,
  ): Promise<unknown> {
    if (this.closed) {
      throw new McpConnectionError({
        server: this.server,
        transport: this.connection.transport,
        toolName,
        reason: 'the toolset was closed',
      });
    }
    const { CallToolResultSchema } = mcpTypes();
    let result: CallToolResult;
    try {
      // The SDK's request(), not callTool(): the output check stays ideact's (a typed error naming the tool).
      result = (await this.sdk.request(
        { method: 'tools/call', params: { name: toolName, arguments: params } },
        CallToolResultSchema,
        { ...this.requestOptions(), signal: context.signal },
      )) as CallToolResult;
    } catch (error) {
      if (context.signal.aborted) throw context.signal.reason ?? error;
      throw this.callError(toolName, error);
    }
    const blocks = (result.content ?? []) as Record<string, unknown>[];
    if (result.isError === true) {
      const text = contentText(blocks);
      throw new McpToolError({
        server: this.server,
        toolName,
        reason: text === '' ? 'the tool reported an error without text' : text,
        isToolError: true,
      });
    }
    if (result.structuredContent !== undefined) {
      return shape.wrapper === undefined
        ? result.structuredContent
        : (result.structuredContent[shape.wrapper] ?? null);
    }
    if (shape.hasSchema) {
      throw new McpToolError({
        server: this.server,
        toolName,
        reason: 'the tool declares an outputSchema but returned no structuredContent',
      });
    }
    const output: McpContentResult = { content: toContentBlocks(blocks) };
    return output;
  }

  private callError(toolName: string, error: unknown): Error {
    const code = (error as { code?: unknown }).code;
    const reason = describeError(error);
    if (code === CONNECTION_CLOSED || /not connected/i.test(reason)) {
      return new McpConnectionError({
        server: this.server,
        transport: this.connection.transport,
        toolName,
        reason: withStderr(reason, this.connection.stderrTail()),
        cause: error,
      });
    }
    if (code === REQUEST_TIMEOUT) {
      return new McpToolError({
        server: this.server,
        toolName,
        reason: `no answer within ${this.options.timeoutMs ?? 60_000} ms`,
        cause: error,
      });
    }
    return new McpToolError({ server: this.server, toolName, reason, cause: error });
  }

  private requestOptions(): { timeout?: number } {
    return this.options.timeoutMs === undefined ? {} : { timeout: this.options.timeoutMs };
  }
}

/** What a tool's output looks like: whether it has an outputSchema, and the property an ideact server wrapped it in. */
interface OutputShape {
  hasSchema: boolean;
  wrapper?: string;
}

function withStderr(reason: string, stderr: string): string {
  const tail = stderr.trim();
  return tail === '' ? reason : `${reason} (stderr: ${tail.slice(-500)})`;
}
