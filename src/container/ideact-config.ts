import type { ServiceClass, ToolClass } from '../decorators/class-types';
import type { Provider } from '../llm/provider';
import type { ToolSchema } from '../protocol/tool-schema';
import type { ActivityMap } from '../calls/activity';
import type { NeedsApproval } from '../calls/call-approval';
import type { MessageHandler } from '../requests/message-handler';
import type { Toolset } from '../calls/toolset';

export type { ActivityMap } from '../calls/activity';

/** What `createContainer()` (and `createAgent()`) is configured with. */
export interface IdeactConfig {
  /**
   * The Tools: `@Tool` classes, plain ToolSchemas, and Toolsets (e.g. `await mcpTools(server)`) whose
   * Tools and Activities join the others and may change during a run (a name given twice keeps its
   * later definition; a Toolset's Tools come after the classes and schemas).
   */
  tools: Array<ToolClass | ToolSchema | Toolset>;
  /** Activities: typedi `@Service()` classes with `@Activity()` methods and/or `{ name: fn }` maps. */
  activities?: Array<ServiceClass | ActivityMap>;
  /**
   * The LLM backend; default `createDefaultProvider()`: OpenAI when OPENAI_API_KEY / OPENAI_BASE_URL is
   * set, else `MissingProviderError` (pass `new OfflineProvider()` explicitly for a model-less demo).
   */
  provider?: Provider;
  /** Root directory module Idea files resolve in (default `process.cwd()`). */
  moduleRoot?: string;
  /** Hosts allowed to serve module URLs (default none). */
  allowedModuleHosts?: string[];
  /** Max Calls in flight per batch (default: no cap). */
  concurrency?: number;
  /** Max module nesting depth (executor default 4). */
  maxModuleDepth?: number;
  /** Extra message handlers for module sub-requests (R-REQ-2). */
  handlers?: MessageHandler[];
  /** Repair attempts for invalid module solutions (default 2). */
  maxRepairs?: number;
  /**
   * Model name for requests the container's Executor makes (module sub-requests, nested agents) when
   * the run gives none; `createAgent({ model })` sets it for the agent's runs and `agent.call()`.
   */
  model?: string;
  /** Sampling temperature for those requests, like `model`. */
  temperature?: number;
  /**
   * Calls for which it returns true wait for a person's approval (as do Calls of Tools with
   * `needsApproval: true`), from every entry point: the agent loop stops `awaiting_approval`, an
   * MCP server asks its client (elicitation); code calling `executor.call()` is its own approver.
   */
  needsApproval?: NeedsApproval;
}
