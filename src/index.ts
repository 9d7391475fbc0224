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
export { ProviderRateLimitError } from './errors/provider-rate-limit.error';
export { ProviderAuthError } from './errors/provider-auth.error';
export { ProviderBadRequestError } from './errors/provider-bad-request.error';
export { ModelPackageMissingError } from './errors/model-package-missing.error';
export { UnknownModelProviderError } from './errors/unknown-model-provider.error';
export { UnsupportedModelError } from './errors/unsupported-model.error';

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
export { ApprovalRequiredError } from './errors/approval-required.error';
export { MissingPackageError } from './errors/missing-package.error';
export { InvalidOutputError } from './errors/invalid-output.error';
export { InvalidConfirmationError } from './errors/invalid-confirmation.error';
export type { DecisionSource } from './errors/invalid-confirmation.error';
export { NestedAgentStoppedError } from './errors/nested-agent-stopped.error';
export { NestedAgentRequiredError } from './errors/nested-agent-required.error';

// run stores (issue 18)
export { RunExistsError } from './errors/run-exists.error';
export { RunNotFoundError } from './errors/run-not-found.error';
export { PlaygroundConfigError } from './errors/playground-config.error';
export { RunHandlerConfigError } from './errors/run-handler-config.error';
export { TypeScriptLoaderMissingError } from './errors/typescript-loader-missing.error';
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
  ReasoningPart,
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
export type { Idea, IdeaSettings } from './protocol/idea';
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
export { IncrementalRenderer } from './agent/incremental-renderer';
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
export { findIdeaProblems } from './protocol/idea-problems';
export {
  findIdeaSchemaProblems,
  type IdeaSchemaCheckOptions,
} from './protocol/idea-schema-problems';
export { callSchema, buildVesselSchema } from './protocol/vessel-schema';
export type { CallSchemaOptions } from './protocol/vessel-schema';
export { DEFAULT_VESSEL_OUTPUT, REFERENCE_PARAM_SCHEMA } from './protocol/vessel-defaults';
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
export { chooseProvider, hasProviderEnvironment } from './llm/choose-provider';
export type { ProviderChoice, ProviderChoiceOptions } from './llm/choose-provider';
export { aiSdkProvider, AiSdkProvider } from './llm/ai-sdk/ai-sdk-provider';
export type { AiSdkProviderOptions } from './llm/ai-sdk/ai-sdk-provider';
export type { AiSdkFamily, AiSdkStructuredOutput } from './llm/ai-sdk/structured-output';
export type { AiSdkLanguageModel, AiSdkProviderData } from './llm/ai-sdk/ai-sdk-model';
export { providerForModel } from './llm/ai-sdk/model-from-package';
export type { ModelPackageOptions } from './llm/ai-sdk/model-from-package';
export { toGeminiSchema } from './llm/ai-sdk/gemini-schema';
export { toStrictSchema } from './llm/strict/to-strict-schema';
export { fromStrictSolution } from './llm/strict/from-strict-solution';
export { UnparsedOption, parseReplyText, type ParseReplyTextOptions } from './llm/unparsed-option';
export { addUsage, emptyUsage } from './llm/usage';

// ── runtime (request pipeline, executor, modules) ─────────────────────────────
// request pipeline (H2)
export { request, runRequest, runRenderedRequest } from './requests/run-request';
export type {
  RequestInput,
  RequestOptions,
  RequestResult,
  RenderedRequest,
} from './requests/run-request';
export { prepareRequest } from './requests/prepare-request';
export { defaultMessageHandlers } from './requests/default-message-handlers';
export type { MessageHandler, RequestDraft, RequestConfig } from './requests/message-handler';
// executor and modules (H3)
export { ModuleLoader, ANONYMOUS_MODULE } from './calls/module-loader';
export type { ModuleLoaderOptions, LoadedModule } from './calls/module-loader';
export { CALLER_INPUT_KIND } from './protocol/caller-input';
export { Toolkit } from './calls/toolkit';
export type { ToolkitOptions } from './calls/toolkit';
export { isToolset } from './calls/toolset';
export type { Toolset } from './calls/toolset';
export type { ActivityFunction, ActivityContext, ParamsTransformer } from './calls/activity';
export { Executor } from './calls/executor';
export type { ExecutorOptions, ChildExecutorOptions } from './calls/executor';
export type { ExecutorActivities } from './calls/executor-activities';
export type { ExecutorToolClass } from './calls/tool-class-resolver';
export type { CallOptions, CallRun, CallSettings } from './calls/call-types';
export { callNeedsApproval, toolNeedsApproval } from './calls/call-approval';
export type {
  ApprovalAnswer,
  ApprovalDecision,
  ApprovalRequest,
  Approver,
  CallApproval,
  ConfirmDecision,
  NeedsApproval,
} from './calls/call-approval';
export type { BatchMode, BatchOptions, BatchResult } from './calls/batch';
export { RequestModuleRunner } from './calls/module-runner';
export { moduleSettings } from './calls/module-runner';
export type {
  ModuleRunner,
  ModuleRunInput,
  RequestModuleRunnerOptions,
} from './calls/module-runner';
export { createLimiter } from './calls/concurrency';
export type { Limiter } from './calls/concurrency';

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
export { Param } from './decorators/param.decorator';
export { PARAM_TYPES } from './decorators/param-types';
export type { ParamOptions, ParamType } from './decorators/param.decorator';
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
export { Inject, Service, Token } from 'typedi';
export type { ContainerInstance } from 'typedi';

// ── agent loop ────────────────────────────────────────────────────────────────
export type { StepModule } from './agent/step-module';
export { Agent } from './agent/agent';
export type { AgentServices, TypedCallRunner } from './agent/agent';
export { createAgent, agentFromContainer } from './container/create-agent';
export { DEFAULT_PROMPT_TOKEN_BUDGET, DEFAULT_ACTOR_CONCURRENCY } from './agent/agent-options';
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
} from './agent/agent-options';
export type { Interruption } from './agent/approvals';
export type { TraceOptions } from './runs/tracing';

// ── runs, events, streaming ───────────────────────────────────────────────────
export { Run } from './agent/run';
export type { RunStream } from './agent/run-stream';
export { RunContext } from './runs/run-context';
export type { DeriveOptions } from './runs/run-context';
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
  OutputDeltaEvent,
  ReasoningDeltaEvent,
  RequestEndEvent,
  CallStartEvent,
  CallEndEvent,
  ApprovalRequestedEvent,
  StepEndEvent,
  RunEndEvent,
} from './runs/run-event';
export { collectFailedCalls } from './agent/failed-calls';
export type { AgentRuntime, AgentSettings, ToolSource, CallRunner } from './agent/agent-runtime';
export { AGENT_STATE_VERSION } from './runs/agent-state';
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
} from './runs/agent-state';
export {
  createInitialState,
  appendNode,
  getNode,
  pathTo,
  contextMessages,
  assertValidState,
} from './runs/state-tree';
export type { InitialStateOptions } from './runs/state-tree';
export { BasicPrompter, estimateTokens, TRIMMED_OUTPUT_NOTE } from './agent/basic-prompter';
export { VesselGenerator } from './agent/vessel-generator';
export { FirstOptionDiscriminator } from './agent/first-option-discriminator';
export { JudgeDiscriminator, JUDGE_INSTRUCTION } from './agent/judge-discriminator';
export type { JudgeVerdict } from './agent/judge-discriminator';
export { CallActor } from './agent/call-actor';
export { OUTPUT_CALL } from './agent/pseudo-calls';
export type { ConfirmCalls } from './agent/confirm';
export { maxTurns, maxTokens, maxTime, aborted, stopWhen } from './agent/stop-conditions';
export type { StopCondition, StopContext } from './agent/stop-conditions';
// saveState writes the older whole-state format (e.g. a hand-made state for agent.load); loadState reads either.
export { saveState } from './runs/state-store';
export { NestedAgentRunner, executorWithNestedAgents } from './agent/nested-agent-runner';
export { DEFAULT_NESTED_LIMITS } from './agent/nested-limits';
export type {
  NestedAgentRunnerOptions,
  NestedAgentExecutorOptions,
} from './agent/nested-agent-runner';
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
  RunOrigin,
  RunExperiment,
  NestedModule,
  RunSummary,
  RunFilter,
  OpenCall,
  StoredRun,
  StoredRunEvent,
  JournalEntry,
  CommitEntry,
  CallStartEntry,
  CallEndEntry,
  StatusEntry,
} from './runs/run-store';
export { RUN_STATUSES } from './runs/run-store';
export { commitEntry, replayJournal, statusOf, statusOfReason } from './runs/run-journal';
export type { ReplayResult } from './runs/run-journal';
export { FileRunStore } from './store/file-run-store';
export type { FileRunStoreOptions } from './store/file-run-store';
export { PostgresRunStore, DEFAULT_CHECKPOINT_EVERY } from './store/postgres-run-store';
export type { PostgresRunStoreOptions } from './store/postgres-run-store';
export type { StateFiles, OpenedStateFile } from './runs/state-files';
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
export { superviseWorker } from './engine/worker-supervisor';
export type { SupervisedWorker, SupervisedWorkerOptions } from './engine/worker-supervisor';
export { RunQueue } from './engine/run-queue';
export type { EnqueueOptions, EnqueuedRun } from './engine/run-queue';
export { enqueueRun, waitForRun } from './engine/enqueue-run';
export type { EnqueueRunOptions } from './engine/enqueue-run';
export { cancelStoredRun, reopenStoredRun } from './engine/stored-run-control';
export type { ReopenOptions } from './engine/stored-run-control';
export type { EngineOptions } from './engine/engine-options';
export type { WorkerRunHeader } from './engine/worker-run-header';
export type { WorkerRunResult } from './engine/worker-run-result';

// ── playground (`ideact dev`) ─────────────────────────────────────────────────
export { createRunHandler } from './serve/create-run-handler';
export type { RunHandler, RunHandlerOptions } from './serve/create-run-handler';
export type { RunHandlerSource } from './serve/served-targets';
export type { AuthorizeRequest, Principal } from './serve/authorization';
export type { ServedRunDetail } from './serve/served-runs';
export type { UiMessageChunk, UiMessageMetadata } from './serve/ui-message-stream';
export type { AgUiEvent } from './serve/ag-ui-events';
export { toNodeListener } from './serve/node-listener';
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

// ── evals (issue 33: cases run as tagged runs, scorers, reports, baselines) ──
export {
  runEval,
  runEvalFile,
  DEFAULT_EVAL_CONCURRENCY,
  DEFAULT_EVAL_MAX_TURNS,
} from './evals/run-eval';
export type { RunEvalOptions, EvalProgress } from './evals/run-eval';
export type {
  EvalSpec,
  EvalTarget,
  IdeaTarget,
  ConfigTarget,
  AgentTarget,
  EvalCase,
  EvalThresholds,
  JudgeSettings,
  ScorerSpec,
  BuiltInScorer,
  SchemaScorer,
  EqualsScorer,
  ContainsScorer,
  MatchesScorer,
  ToolCalledScorer,
  MaxTurnsScorer,
  MaxCostScorer,
  MaxLatencyScorer,
  JudgeScorer,
  TokenPricing,
  CustomScorer,
  ScoreValue,
  ScorerContext,
  TrialUsage,
} from './evals/eval-spec';
export { EXPERIMENT_RESULT_VERSION } from './evals/eval-result';
export type {
  ExperimentResult,
  ExperimentSummary,
  ExperimentComparison,
  CaseResult,
  CaseDiff,
  CaseChange,
  TrialResult,
  ScoreResult,
  JudgeVote,
  ScorerSummary,
  EvalSummary,
  ThresholdResult,
  Spread,
} from './evals/eval-result';
export { compareExperiments } from './evals/compare-experiments';
export { ExperimentStore, DEFAULT_EXPERIMENTS_DIR } from './evals/experiment-store';
export { junitReport } from './evals/junit-report';
export { formatEvalReport } from './evals/eval-report';
export { loadEvalFile } from './evals/load-eval';
export type { LoadedEval } from './evals/load-eval';
export { EVAL_JUDGE_INSTRUCTION } from './evals/scorers/judge-scorer';
export { InvalidEvalError } from './errors/invalid-eval.error';

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
export type { McpApprovalMode } from './mcp/server/mcp-approval-mode';
export type { McpHttpEndpoint, McpHttpOptions } from './mcp/server/mcp-http-options';
export type {
  McpMessage,
  McpSdkClient,
  McpSdkServer,
  McpToolDefinition,
  McpTransport,
} from './mcp/mcp-sdk-types';
export {
  ERROR_META_KEY,
  OUTPUT_WRAPPER_META_KEY,
  OUTPUT_WRAPPER_PROPERTY,
} from './mcp/server/mcp-meta-keys';

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
