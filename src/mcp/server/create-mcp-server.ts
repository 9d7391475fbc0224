import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { ContainerInstance } from 'typedi';
import { isContainer } from '../../container/config-module';
import { createContainer, disposeContainer } from '../../container/create-container';
import type { IdeactConfig } from '../../container/ideact-config';
import { ContainerConfigurationError } from '../../errors/container-configuration.error';
import type { Provider } from '../../llm/provider';
import type { ToolSchema } from '../../protocol/tool-schema';
import { readTool, resolveActivity } from '../../protocol/read-tool';
import { Executor } from '../../calls/executor';
import { ANONYMOUS_MODULE } from '../../calls/module-loader';
import { ideasFolderTools } from './ideas-folder-tools';
import { mcpServerSdk, mcpStdioServer } from '../mcp-sdk';
import { mcpApproval } from './mcp-approval';
import type { McpApprovalMode } from './mcp-approval-mode';
import { callServedTool } from './mcp-tool-call';
import { servedTool, type ServedTool } from './mcp-tool-definition';
import { ToolListChanges } from './tool-list-changes';
import type { McpHttpEndpoint, McpHttpOptions } from './mcp-http-options';
import type { McpSdkServer, McpToolDefinition, McpTransport } from '../mcp-sdk-types';

const DEFAULT_TOOL_LIST_CHECK_MS = 1000;

/** A folder of Ideas to serve (each Idea a module tool), with the provider that runs them. */
export interface McpIdeasSource {
  /** The folder: every `.json` Idea under it (recursively) becomes a tool named by its file name. */
  ideasDir: string;
  /** Runs the Ideas' clean rooms (default: OpenAI from the environment, else MissingProviderError). */
  provider?: Provider;
  /** More Tools to serve beside the Ideas (`@Tool` classes, ToolSchemas, Toolsets). */
  tools?: IdeactConfig['tools'];
  /** The Activities of those Tools. */
  activities?: IdeactConfig['activities'];
  /** Where `_module` paths inside the Ideas resolve (default `ideasDir`). */
  moduleRoot?: string;
}

/** What is served: a container from `createContainer()`, or a folder of Ideas. */
export type McpServerSource = ContainerInstance | McpIdeasSource;

/** How the server introduces itself to clients. */
export interface McpServerOptions {
  /** The server name clients show (default `ideact`). */
  name?: string;
  /** The server version (default ideact's version). */
  version?: string;
  /** Instructions clients may hand their model. */
  instructions?: string;
  /**
   * How often (ms) the served list is checked for changes (Toolsets such as `mcpTools` change theirs)
   * to send `notifications/tools/list_changed`; it is also checked after every call. Default 1000; 0
   * checks only after calls.
   */
  toolListCheckMs?: number;
  /**
   * How a Tool that needs approval (its schema's `needsApproval`, `@Tool({ needsApproval })`, the
   * container's `needsApproval` predicate) is approved: `'ask'` (default) asks the client's user by
   * elicitation and never runs it unasked; `'skip'` runs it without asking (a warning is printed).
   */
  approval?: McpApprovalMode;
}

/**
 * The container's Tools (and a folder's Ideas) served over MCP. Each connection gets its own SDK
 * `Server` (stdio has one; Streamable HTTP one per session); all share one Executor.
 */
export interface IdeactMcpServer {
  /** The executor the tools run in (the container's). */
  readonly executor: Executor;
  /** The MCP tool definitions served now (what `tools/list` answers). */
  listTools(): McpToolDefinition[];
  /**
   * A new SDK `Server` answering `tools/list` and `tools/call`, for a transport of your own (typed
   * structurally: cast to the SDK's `Server` for the rest of its API).
   */
  createServer(): McpSdkServer;
  /** Connects a new Server to `transport` (e.g. `new StdioServerTransport()`); resolves once connected. */
  connect(transport: McpTransport): Promise<McpSdkServer>;
  /** Serves on this process's stdin/stdout (nothing else may write to stdout). */
  serveStdio(): Promise<McpSdkServer>;
  /** Serves Streamable HTTP on 127.0.0.1 (unless `host` says otherwise), checking Origin and token. */
  serveHttp(options?: McpHttpOptions): Promise<McpHttpEndpoint>;
  /** Closes every connection and HTTP endpoint; disposes the container when it made it. */
  close(): Promise<void>;
}

/**
 * Serves ideact Tools and Ideas over MCP (issue 19): `tools/list` gives each Tool's params as
 * `inputSchema` and its `_output` as `outputSchema` (wrapped as `{ result }` when not an object);
 * `tools/call` validates, runs the Call (Activities, or the provider for latent and module Tools),
 * answers `structuredContent` plus text, reports progress and honours cancellation.
 * Built on the SDK's low-level `Server`: it takes our JSON Schemas verbatim (McpServer wants Zod).
 */
export async function createMcpServer(
  source: McpServerSource,
  options: McpServerOptions = {},
): Promise<IdeactMcpServer> {
  const approval = options.approval ?? 'ask';
  if (approval !== 'ask' && approval !== 'skip') {
    throw new ContainerConfigurationError({
      api: 'createMcpServer',
      setting: 'approval',
      problem: `expected 'ask' or 'skip', got ${JSON.stringify(approval)}.`,
      solutions: [
        "Leave it out (tools that need approval are asked about), or pass approval: 'skip'.",
      ],
    });
  }
  if (approval === 'skip') {
    process.emitWarning(
      'ideact: this MCP server runs tools that need approval WITHOUT asking anyone (approval: "skip" / --no-approval): any client can trigger their side effects.',
      { code: 'IDEACT_MCP_APPROVAL_SKIPPED' },
    );
  }
  // The SDK loads with the first server (an optional dependency: MissingPackageError without it).
  const sdk = mcpServerSdk();
  const { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema } = sdk.types;
  const owned = !isContainer(source);
  const container = owned ? await containerOfIdeas(source as McpIdeasSource) : source;
  const executor = container.get(Executor);
  const info = { name: options.name ?? 'ideact', version: options.version ?? ideactVersion() };
  const servers = new Set<Server>();
  const endpoints = new Set<McpHttpEndpoint>();
  let cached:
    { tools: readonly ToolSchema[]; served: Map<string, ServedTool>; runner: Executor } | undefined;

  /** The served tools and the executor that runs them, made again when the list changed. */
  const current = (): { served: Map<string, ServedTool>; runner: Executor } => {
    const tools = executor.tools;
    if (cached?.tools !== tools) {
      const runnable = tools.map((tool) => asModuleWhenInlineLatent(tool, executor.activityNames));
      cached = {
        tools,
        served: new Map(tools.map((tool) => [toolKey(tool), servedTool(tool)])),
        // Only when a Tool had to change: the container's executor otherwise runs them as they are.
        runner: runnable.some((tool, index) => tool !== tools[index])
          ? executor.withTools(runnable)
          : executor,
      };
    }
    return cached;
  };
  const currentTools = (): Map<string, ServedTool> => current().served;

  const listChanges = new ToolListChanges(
    () => executor.tools,
    () => {
      for (const server of servers) {
        // A client that went away misses nothing it could use.
        server.sendToolListChanged().catch(() => undefined);
      }
    },
    options.toolListCheckMs ?? DEFAULT_TOOL_LIST_CHECK_MS,
  );

  const createServer = (): Server => {
    const server = new sdk.Server(info, {
      capabilities: { tools: { listChanged: true } },
      ...(options.instructions === undefined ? {} : { instructions: options.instructions }),
    });
    server.setRequestHandler(ListToolsRequestSchema, () => ({
      tools: [...currentTools().values()].map((served) => served.definition),
    }));
    server.setRequestHandler(CallToolRequestSchema, (request, extra) => {
      const { served: tools, runner } = current();
      const served = tools.get(request.params.name);
      if (served === undefined) {
        // A protocol error (the spec keeps unknown tools one); the SDK adds its "MCP error" prefix.
        throw protocolError(
          ErrorCode.InvalidParams,
          `Unknown tool "${request.params.name}". Known tools: ${[...tools.keys()].join(', ')}; call tools/list to see them.`,
        );
      }
      return callServedTool(
        runner,
        served,
        request.params.arguments,
        extra,
        mcpApproval(approval, server, extra),
      ).finally(() => listChanges.check());
    });
    servers.add(server);
    server.onclose = () => {
      servers.delete(server);
      if (servers.size === 0) listChanges.stop();
    };
    listChanges.start();
    return server;
  };

  const connect = async (transport: McpTransport): Promise<McpSdkServer> => {
    const server = createServer();
    // An SDK transport, typed structurally in ideact's API (the SDK is an optional dependency).
    await server.connect(transport as unknown as Transport);
    return sdkServer(server);
  };

  return {
    executor,
    listTools: () =>
      [...currentTools().values()].map((served) => served.definition as McpToolDefinition),
    createServer: () => sdkServer(createServer()),
    connect,
    async serveStdio() {
      const { StdioServerTransport } = mcpStdioServer();
      return connect(new StdioServerTransport() as unknown as McpTransport);
    },
    async serveHttp(httpOptions = {}) {
      // Loaded on first use: stdio servers never pay for the HTTP transport.
      const { serveHttp } = await import('./serve-http');
      const endpoint = await serveHttp(createServer, httpOptions);
      endpoints.add(endpoint);
      return endpoint;
    },
    async close() {
      for (const endpoint of endpoints) await endpoint.close();
      endpoints.clear();
      for (const server of [...servers]) await server.close();
      servers.clear();
      listChanges.stop();
      if (owned) disposeContainer(container);
    },
  };
}

/** A container serving the Ideas of a folder as module tools (plus any Tools given beside them). */
async function containerOfIdeas(source: McpIdeasSource): Promise<ContainerInstance> {
  if (typeof source !== 'object' || source === null || typeof source.ideasDir !== 'string') {
    throw new ContainerConfigurationError({
      api: 'createMcpServer',
      setting: 'source',
      problem: 'expected a container from createContainer() or { ideasDir }.',
      solutions: [
        'Call `createMcpServer(createContainer({ tools, activities, provider }))`.',
        "Call `createMcpServer({ ideasDir: './ideas', provider })`.",
      ],
    });
  }
  const moduleRoot = path.resolve(source.moduleRoot ?? source.ideasDir);
  const ideaTools = await ideasFolderTools(source.ideasDir, moduleRoot);
  return createContainer({
    tools: [...(source.tools ?? []), ...ideaTools],
    ...(source.activities === undefined ? {} : { activities: source.activities }),
    ...(source.provider === undefined ? {} : { provider: source.provider }),
    moduleRoot,
  });
}

/**
 * An inline latent Tool (no Activity, no `_module`) as an anonymous module: an MCP client is not the
 * model that would fill `_output` inline, so the configured provider produces it in a clean room
 * (R-MOD-1) from the Tool's description and the arguments. Other Tools are returned as they are.
 */
function asModuleWhenInlineLatent(tool: ToolSchema, activities: ReadonlySet<string>): ToolSchema {
  const info = readTool(tool);
  if (info.module !== undefined || resolveActivity(tool, activities) !== '') return tool;
  return { ...tool, properties: { ...tool.properties, _module: { const: ANONYMOUS_MODULE } } };
}

/** The SDK's Server as ideact's API shows it (structurally: the SDK is an optional dependency). */
function sdkServer(server: Server): McpSdkServer {
  return server as unknown as McpSdkServer;
}

/**
 * A JSON-RPC error for the SDK to send as it is: a plain Error with `code`, whose message the SDK's
 * client prefixes once with `MCP error <code>:` (an `McpError` would carry that prefix already, and
 * the client would add it again).
 */
function protocolError(code: number, message: string): Error {
  return Object.assign(new Error(message), { code });
}

/** The `_tool` name a served tool is looked up by. */
function toolKey(tool: ToolSchema): string {
  return String(tool.properties._tool.const);
}

/** ideact's version from its package.json (the server's default version). */
function ideactVersion(): string {
  try {
    const file = path.join(__dirname, '..', '..', '..', 'package.json');
    return (JSON.parse(readFileSync(file, 'utf8')) as { version?: string }).version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
}
