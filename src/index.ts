/**
 * ideact — a TypeScript framework for LLM agents built from declared capabilities.
 * Explicit named exports only; each section is one layer (see DESIGN.md §4). The export lists look
 * alike to a duplicate finder; they are the public API, spelled out name by name on purpose.
 */
import 'reflect-metadata';

// ── errors ────────────────────────────────────────────────────────────────────
export { IdeactError } from './errors/ideact-error';
export type { ErrorFault, IdeactErrorOptions } from './errors/ideact-error';
export { ConfigurationError } from './errors/configuration.error';
export { InputError } from './errors/input.error';
export { ModelBehaviorError } from './errors/model-behavior.error';
export { ProviderError } from './errors/provider.error';
export { ExecutionError } from './errors/execution.error';
export { StepFailedError } from './errors/step-failed.error';
export { formatIssues } from './errors/validation-issue';
export type { ValidationIssue } from './errors/validation-issue';
export { UnresolvedReferenceError } from './errors/unresolved-reference.error';
export { DependencyCycleError } from './errors/dependency-cycle.error';
export { DependencyFailedError } from './errors/dependency-failed.error';
export { InvalidSchemaError } from './errors/invalid-schema.error';
export { UnsafePathError } from './errors/unsafe-path.error';
export { InvalidOutputPathError } from './errors/invalid-output-path.error';
export { InvalidIdeaError } from './errors/invalid-idea.error';
export { UnknownToolError } from './errors/unknown-tool.error';
export { InvalidVesselError } from './errors/invalid-vessel.error';
export { DecoratorError } from './errors/decorator.error';
export { ParamsValidationError } from './errors/params-validation.error';
export type { ParamsValidationIssue } from './errors/params-validation.error';
export { ContainerConfigurationError } from './errors/container-configuration.error';

// providers and the request pipeline (H2)
export { InvalidSolutionError } from './errors/invalid-solution.error';
export { MissingApiKeyError } from './errors/missing-api-key.error';
export { MissingProviderError } from './errors/missing-provider.error';
export { ProviderApiError } from './errors/provider-api.error';
export type { ProviderApiErrorOptions } from './errors/provider-api.error';
export { ProviderUnreachableError } from './errors/provider-unreachable.error';
export { ProviderTimeoutError } from './errors/provider-timeout.error';
export { RefusalError } from './errors/refusal.error';
export { TruncatedResponseError } from './errors/truncated-response.error';
export { RequestAbortedError } from './errors/request-aborted.error';
export { ScriptedSolutionError } from './errors/scripted-solution.error';
export { ScriptExhaustedError } from './errors/script-exhausted.error';
export { ScriptIncompleteError } from './errors/script-incomplete.error';
export { ProviderStreamClosedError } from './errors/provider-stream-closed.error';
export { UnhandledMessageError } from './errors/unhandled-message.error';

// executor and modules (H3)
export { ModulePathError } from './errors/module-path.error';
export { ModuleNotFoundError } from './errors/module-not-found.error';
export { ModuleUrlError } from './errors/module-url.error';
export { ModuleCycleError } from './errors/module-cycle.error';
export { ModuleDepthError } from './errors/module-depth.error';
export { InvalidCallOutputError } from './errors/invalid-call-output.error';
export { InvalidParamsError } from './errors/invalid-params.error';
export { InvalidActivityOutputError } from './errors/invalid-activity-output.error';
export { ActivityFailedError } from './errors/activity-failed.error';
export { UnknownActivityError } from './errors/unknown-activity.error';
export { CallCancelledError } from './errors/call-cancelled.error';
export { CallFailedError } from './errors/call-failed.error';
export { ImportNotAllowedError } from './errors/import-not-allowed.error';
export { OutputPathNotAllowedError } from './errors/output-path-not-allowed.error';
export { OutputMethodNotAllowedError } from './errors/output-method-not-allowed.error';
export { InvalidOutputWriteError } from './errors/invalid-output-write.error';
export { MissingOutputSchemaError } from './errors/missing-output-schema.error';

// agent loop (H5)
export { InvalidAgentStateError } from './errors/invalid-agent-state.error';
export { CallRejectedError } from './errors/call-rejected.error';
export { InvalidOutputError } from './errors/invalid-output.error';
export { InvalidConfirmationError } from './errors/invalid-confirmation.error';
export { NestedAgentStoppedError } from './errors/nested-agent-stopped.error';
export { NestedAgentRequiredError } from './errors/nested-agent-required.error';

// run stores (issue 18)
export { RunExistsError } from './errors/run-exists.error';
export { RunNotFoundError } from './errors/run-not-found.error';
export { PlaygroundConfigError } from './errors/playground-config.error';
export { DatabaseConnectionError } from './errors/database-connection.error';
export { InvalidRunIdError } from './errors/invalid-run-id.error';

// workers (issue 18)
export { WorkerAlreadyRunningError } from './errors/worker-already-running.error';
export { WorkerRunFailedError } from './errors/worker-run-failed.error';
export { RunFinishedError } from './errors/run-finished.error';
export { RunActiveError } from './errors/run-active.error';
export { UnknownAgentError } from './errors/unknown-agent.error';

// MCP client (issue 19)
export { McpConnectionError } from './errors/mcp-connection.error';
export type { McpTransportKind } from './errors/mcp-connection.error';
export { McpToolError } from './errors/mcp-tool.error';
export { McpResourceError } from './errors/mcp-resource.error';

// ── protocol (pure rules) ─────────────────────────────────────────────────────
export type { JSONSchema, JSONSchemaTypeName, JSONValue } from './protocol/json-schema';
export type {
  Message,
  MessageType,
  ChatMessage,
  Role,
  SystemMessage,
  TextMessage,
  DataMessage,
  InputMessage,
  StateMessage,
  ResultMessage,
  OutputWriteFields,
} from './protocol/message';
export type { Call, CallError, CallOutcome, CallSchema } from './protocol/call';
export type { Idea } from './protocol/idea';
export type { ToolSchema } from './protocol/tool-schema';
export type { VesselSolution } from './protocol/vessel-solution';
export type { TypedToolReference } from './protocol/typed-tool';
export { validateJson, compileValidator } from './protocol/json-validation';
export type { JsonValidator } from './protocol/json-validation';
export { formatJson } from './protocol/format-json';
export { MAX_JSON_DEPTH, findJsonDepthViolation } from './protocol/json-depth';
export type { JsonDepthViolation } from './protocol/json-depth';
export { applyMergePatch } from './protocol/merge-patch';
export { dataView } from './protocol/data-view';
export type { DataMessageView } from './protocol/data-view';
export { mergeDataMessages } from './protocol/merge-data';
export { renderMessages, renderMessage, renderData } from './protocol/render-messages';
export { IncrementalRenderer } from './runtime/loop/incremental-renderer';
export { viewOfKind } from './protocol/kind-view';
export { readTool, resolveActivity, toolName } from './protocol/read-tool';
export type { ToolInfo, ToolImports, ToolOutputPath, ToolOutputMethod } from './protocol/tool-info';
export {
  PROTOCOL_VOCABULARY,
  vocabularyName,
  bothNames,
  bothNamesInCode,
  vocabularyOfName,
} from './protocol/protocol-vocabulary';
export type {
  ProtocolVocabulary,
  VocabularyConcept,
  VocabularyEntry,
  DelegateField,
  ScopesField,
} from './protocol/protocol-vocabulary';
export {
  checkToolMetaNames,
  checkSchemaToolNames,
  toolVocabulary,
  schemaVocabulary,
} from './protocol/tool-meta-names';
export type { ToolLocation } from './protocol/tool-meta-names';
export { latestToolDefinitions } from './protocol/tool-override';
export { invertIdea, findIdeaInput } from './protocol/invert-idea';
export { parseIdea } from './protocol/parse-idea';
export {
  callSchema,
  buildVesselSchema,
  DEFAULT_VESSEL_OUTPUT,
  REFERENCE_PARAM_SCHEMA,
} from './protocol/vessel-schema';
export type { CallSchemaOptions } from './protocol/vessel-schema';
export { parseVessel } from './protocol/parse-vessel';
export {
  forEachSubschema,
  mapSubschemas,
  walkSchema,
  isSchemaObject,
  locationPointer,
} from './protocol/schema-walk';
export type { SchemaNode, SubschemaLocation } from './protocol/schema-walk';
export { resolveReferences } from './protocol/resolve-references';
export { applyOutputPath } from './protocol/apply-output-path';
export type { OutputWriteOptions } from './protocol/apply-output-path';
export { OUTPUT_METHODS, DEFAULT_OUTPUT_METHOD, isOutputMethod } from './protocol/output-method';
export type { OutputMethod } from './protocol/output-method';
export { readOutputWrite } from './protocol/output-write';
export type { OutputWrite } from './protocol/output-write';
export { readOutputMethod, chooseOutputMethod } from './protocol/read-output-method';
export { selectImports } from './protocol/select-imports';
export {
  parseReferenceExpression,
  parseOutputPath,
  isReferenceExpression,
  REFERENCE_SIGIL,
} from './protocol/path-expression';
export type {
  PathSegment,
  ReferenceTerm,
  OutputTarget,
  Expression,
} from './protocol/path-expression';

// ── llm (providers) ───────────────────────────────────────────────────────────
export type {
  Provider,
  ProviderChunk,
  ProviderRequest,
  ProviderResponse,
  Usage,
} from './llm/provider';
export { ProviderStream } from './llm/stream/provider-stream';
export { streamFromProvider } from './llm/stream/stream-from-provider';
export { OpenAIProvider, DEFAULT_OPENAI_MODEL } from './llm/openai/openai-provider';
export type { OpenAIProviderOptions } from './llm/openai/openai-provider';
export type { StructuredOutputMode } from './llm/openai/chat-request-body';
export { OfflineProvider } from './llm/offline/offline-provider';
export { sampleSolution } from './llm/offline/sample-solution';
export { ScriptedProvider, ScriptedOptions } from './llm/scripted/scripted-provider';
export type {
  ScriptEntry,
  ScriptFunction,
  ScriptedProviderOptions,
  ScriptedStreamOptions,
} from './llm/scripted/scripted-provider';
export { createDefaultProvider } from './llm/default-provider';
export { toStrictSchema } from './llm/strict/to-strict-schema';
export { fromStrictSolution } from './llm/strict/from-strict-solution';
export { UnparsedOption, parseReplyText } from './llm/unparsed-option';
export { addUsage, emptyUsage } from './llm/usage';

// ── runtime (request pipeline, executor, modules) ─────────────────────────────
// request pipeline (H2)
export { request, runRequest, runRenderedRequest } from './runtime/request/run-request';
export type {
  RequestInput,
  RequestOptions,
  RequestResult,
  RenderedRequest,
} from './runtime/request/run-request';
export { prepareRequest } from './runtime/request/prepare-request';
export { defaultMessageHandlers } from './runtime/request/default-message-handlers';
export type {
  MessageHandler,
  RequestDraft,
  RequestConfig,
} from './runtime/request/message-handler';
// executor and modules (H3)
export { ModuleLoader, ANONYMOUS_MODULE } from './runtime/module-loader';
export type { ModuleLoaderOptions, LoadedModule } from './runtime/module-loader';
export { Toolkit } from './runtime/toolkit';
export type { ToolkitOptions } from './runtime/toolkit';
export { isToolset } from './runtime/toolset';
export type { Toolset } from './runtime/toolset';
export type { ActivityFunction, ActivityContext, ParamsTransformer } from './runtime/activity';
export { Executor } from './runtime/executor';
export type { ExecutorOptions, ChildExecutorOptions } from './runtime/executor';
export type { ExecutorActivities } from './runtime/executor-activities';
export type { ExecutorToolClass } from './runtime/tool-class-resolver';
export type { CallOptions, CallRun } from './runtime/call-types';
export type { BatchMode, BatchOptions, BatchResult } from './runtime/batch';
export { RequestModuleRunner } from './runtime/module-runner';
export type {
  ModuleRunner,
  ModuleRunInput,
  RequestModuleRunnerOptions,
} from './runtime/module-runner';
export { createLimiter } from './runtime/concurrency';
export type { Limiter } from './runtime/concurrency';

// ── decorators ────────────────────────────────────────────────────────────────
export { Tool } from './decorators/tool.decorator';
export type { ToolOptions } from './decorators/tool.decorator';
export { Output } from './decorators/output.decorator';
export { Activity } from './decorators/activity.decorator';
export { Module, Delegate } from './decorators/module.decorator';
export type { ModuleOptions, DelegateOptions } from './decorators/module.decorator';
export { Imports, Scopes } from './decorators/imports.decorator';
export type { ImportsChoice, ScopesChoice } from './decorators/imports.decorator';
export { OutputPath } from './decorators/output-path.decorator';
export type {
  OutputPathChoice,
  OutputMethodChoice,
  OutputPathOptions,
} from './decorators/output-path.decorator';
export { Describe } from './decorators/describe.decorator';
export { toolSchema, toolNameOf, isToolClass } from './decorators/tool-schema-builder';
export { createParamsTransformer } from './decorators/params-transformer';
export { getMetadataStorage, MetadataStorage } from './decorators/metadata-storage';
export type { ClassConstructor, ToolClass, ServiceClass } from './decorators/class-types';

// ── container ─────────────────────────────────────────────────────────────────
export { createContainer, disposeContainer } from './container/create-container';
export type { IdeactConfig, ActivityMap } from './container/ideact-config';
export {
  PROVIDER,
  IDEACT_CONFIG,
  TOOLS,
  TOOLSETS,
  ACTIVITIES,
  PARAMS_TRANSFORMERS,
  MODULE_RUNNER,
  PROMPTER,
  GENERATOR,
  DISCRIMINATOR,
  ACTOR,
} from './container/tokens';
export { Service } from 'typedi';
export type { ContainerInstance } from 'typedi';

// ── agent loop ────────────────────────────────────────────────────────────────
export type { StepModule } from './runtime/loop/step-module';
export { Agent } from './runtime/loop/agent';
export type { AgentServices, TypedCallRunner } from './runtime/loop/agent';
export { createAgent, agentFromContainer } from './container/create-agent';
export {
  DEFAULT_PROMPT_TOKEN_BUDGET,
  DEFAULT_ACTOR_CONCURRENCY,
} from './runtime/loop/agent-options';
export type {
  AgentConfig,
  RunOptions,
  ResumeOptions,
  AgentResult,
  StepModules,
  StepEvent,
  FailedCall,
  ActivityErrorMode,
  LoadOptions,
  ExecutePlanOptions,
  PlannedCall,
  PlanMode,
} from './runtime/loop/agent-options';
export type { ApprovalDecision, Interruption, NeedsApproval } from './runtime/loop/approvals';
export type { TraceOptions } from './runtime/tracing';

// ── runs, events, streaming ───────────────────────────────────────────────────
export { Run } from './runtime/loop/run';
export type { RunStream } from './runtime/loop/run-stream';
export { RunContext } from './runtime/run-context';
export type { DeriveOptions } from './runtime/run-context';
export type {
  RunEvent,
  RunEventType,
  RunEventBase,
  RunEventListener,
  RunEventPayload,
  RunEventUsage,
  RunStartEvent,
  RequestStartEvent,
  SolutionDeltaEvent,
  RequestEndEvent,
  CallStartEvent,
  CallEndEvent,
  ApprovalRequestedEvent,
  StepEndEvent,
  RunEndEvent,
} from './runtime/run-event';
export { collectFailedCalls } from './runtime/loop/failed-calls';
export type {
  AgentRuntime,
  AgentSettings,
  ToolSource,
  CallRunner,
} from './runtime/loop/agent-runtime';
export { AGENT_STATE_VERSION } from './runtime/loop/agent-state';
export type {
  AgentState,
  AgentNode,
  NodeMessage,
  NodeMetadata,
  NodeOrigin,
  VesselMessage,
  NextStep,
  ActiveStep,
  PrompterStep,
  GeneratorStep,
  DiscriminatorStep,
  ActorStep,
  DoneStep,
  StepModuleName,
  StopReason,
  AgentUsage,
  AgentLimits,
  TokenUsage,
} from './runtime/loop/agent-state';
export {
  createInitialState,
  appendNode,
  getNode,
  pathTo,
  contextMessages,
  assertValidState,
} from './runtime/loop/state-tree';
export type { InitialStateOptions } from './runtime/loop/state-tree';
export { BasicPrompter, estimateTokens, TRIMMED_OUTPUT_NOTE } from './runtime/loop/basic-prompter';
export { VesselGenerator } from './runtime/loop/vessel-generator';
export { FirstOptionDiscriminator } from './runtime/loop/first-option-discriminator';
export { JudgeDiscriminator, JUDGE_INSTRUCTION } from './runtime/loop/judge-discriminator';
export type { JudgeVerdict } from './runtime/loop/judge-discriminator';
export { CallActor, OUTPUT_CALL } from './runtime/loop/call-actor';
export type { ConfirmCalls, ConfirmDecision } from './runtime/loop/confirm';
export { maxTurns, maxTokens, maxTime, aborted, stopWhen } from './runtime/loop/stop-conditions';
export type { StopCondition, StopContext } from './runtime/loop/stop-conditions';
// saveState writes the older whole-state format (e.g. a hand-made state for agent.load); loadState reads either.
export { saveState } from './runtime/state-store';
export {
  NestedAgentRunner,
  DEFAULT_NESTED_LIMITS,
  executorWithNestedAgents,
} from './runtime/loop/nested-agent-runner';
export type {
  NestedAgentRunnerOptions,
  NestedAgentExecutorOptions,
} from './runtime/loop/nested-agent-runner';
export {
  vesselIdeaParts,
  vesselTools,
  vesselOutput,
  moduleOutputSchema,
} from './protocol/vessel-idea';
export type { VesselIdeaParts } from './protocol/vessel-idea';
export { callDependencies, dependencyCycles } from './protocol/call-dependencies';
export type {
  CallDependencies,
  DependencyExpression,
  DependencyGroup,
  DependencyOptions,
} from './protocol/call-dependencies';

// ── run stores ────────────────────────────────────────────────────────────────
export type {
  RunStore,
  RunStatus,
  RunHeader,
  NestedModule,
  RunSummary,
  RunFilter,
  OpenCall,
  StoredRun,
  JournalEntry,
  CommitEntry,
  CallStartEntry,
  CallEndEntry,
  StatusEntry,
} from './runtime/run-store';
export { commitEntry, replayJournal, statusOf, statusOfReason } from './runtime/loop/run-journal';
export type { ReplayResult } from './runtime/loop/run-journal';
export { FileRunStore } from './store/file-run-store';
export type { FileRunStoreOptions } from './store/file-run-store';
export { PostgresRunStore, DEFAULT_CHECKPOINT_EVERY } from './store/postgres-run-store';
export type { PostgresRunStoreOptions } from './store/postgres-run-store';
export type { StateFiles, OpenedStateFile } from './runtime/state-files';
export {
  StateFileStores,
  StateFileRunStore,
  stateFileStoreDir,
  loadState,
  saveStateFile,
} from './store/state-file-store';
export { STATE_FILE_FORMAT } from './store/state-file-content';
export type { StateFilePointer, StateFileContent } from './store/state-file-content';
export { importState } from './store/import-state';
export type { ImportStateOptions } from './store/import-state';
export type {
  PostgresPool,
  PostgresPoolClient,
  PostgresQueryable,
  PostgresQueryResult,
} from './store/postgres-connection';

// ── workers (DBOS on PostgreSQL; the SDK loads with the first worker or queue) ──
export { startWorker } from './engine/worker';
export type { Worker, WorkerOptions, WorkerAgent } from './engine/worker';
export { RunQueue } from './engine/run-queue';
export type { EnqueueOptions, EnqueuedRun } from './engine/run-queue';
export { enqueueRun, waitForRun } from './engine/enqueue-run';
export type { EnqueueRunOptions } from './engine/enqueue-run';
export { cancelStoredRun, reopenStoredRun } from './engine/stored-run-control';
export type { ReopenOptions } from './engine/stored-run-control';
export type { EngineOptions } from './engine/engine-options';
export type { WorkerRunHeader } from './engine/run-workflow';
export type { WorkerRunResult } from './engine/worker-run-result';

// ── playground (`ideact dev`) ─────────────────────────────────────────────────
export { startDevServer } from './dev/start-dev-server';
export type { DevServer, DevServerOptions } from './dev/start-dev-server';
export type {
  PlaygroundToolSummary,
  PlaygroundToolDetail,
  PlaygroundRunSummary,
  PlaygroundInterruption,
  PlaygroundProviderInfo,
  RenderedMessage,
} from './dev/playground-api';
export type { PlaygroundRunDetail } from './dev/playground-runs';

// ── codegen ───────────────────────────────────────────────────────────────────
export { generateFromIdeas } from './codegen/generate-from-ideas';
export type {
  CodegenOptions,
  CodegenResult,
  CodegenFile,
  CodegenFileStatus,
} from './codegen/generate-from-ideas';
export type { CodegenWarning } from './codegen/codegen-model';
export { CodegenError } from './errors/codegen.error';
export { IdeaFileNotFoundError } from './errors/idea-file-not-found.error';
export { CliUsageError } from './errors/cli-usage.error';
// ── inspection ────────────────────────────────────────────────────────────────
export { renderState } from './cli/render-state';

// ── MCP server (issue 19: ideact Tools and Ideas served over MCP; the SDK loads with the server) ──
export { createMcpServer } from './mcp/server/create-mcp-server';
export type {
  IdeactMcpServer,
  McpIdeasSource,
  McpServerOptions,
  McpServerSource,
} from './mcp/server/create-mcp-server';
export type { McpHttpEndpoint, McpHttpOptions } from './mcp/server/serve-http';
export { OUTPUT_WRAPPER_META_KEY, OUTPUT_WRAPPER_PROPERTY } from './mcp/server/mcp-tool-definition';
export { ERROR_META_KEY } from './mcp/server/mcp-tool-call';

// ── MCP client (issue 19: an MCP server's tools as a Toolset; the SDK loads on first connect) ──
export { mcpTools } from './mcp/client/mcp-tools';
export { McpToolset } from './mcp/client/mcp-toolset';
export type { McpToolsOptions } from './mcp/client/mcp-toolset';
export { mcpResources } from './mcp/client/mcp-resources';
export type { McpResourcesOptions } from './mcp/client/mcp-resources';
export { isStdioServer } from './mcp/client/mcp-server-config';
export type {
  McpServerConfig,
  McpStdioServer,
  McpHttpServer,
} from './mcp/client/mcp-server-config';
export { MCP_CONTENT_RESULT_SCHEMA } from './mcp/client/mcp-content';
export type {
  McpContentBlock,
  McpContentResult,
  McpResourceContents,
} from './mcp/client/mcp-content';
