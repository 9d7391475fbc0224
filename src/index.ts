/**
 * ideact — a TypeScript framework for LLM agents built from declared capabilities.
 * Explicit named exports only; each section is one layer (see DESIGN.md §4).
 */
import 'reflect-metadata';

// ── errors ────────────────────────────────────────────────────────────────────
export { IdeactError } from './errors/ideact-error';
export type { ErrorFault, IdeactErrorOptions } from './errors/ideact-error';
export { UnresolvedReferenceError } from './errors/unresolved-reference.error';
export { InvalidSchemaError } from './errors/invalid-schema.error';

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
} from './protocol/message';
export type { Call, CallError, CallOutcome, CallSchema } from './protocol/call';
export type { Idea } from './protocol/idea';
export type { ToolSchema } from './protocol/tool-schema';
export type { VesselSolution } from './protocol/vessel-solution';
export type { TypedToolReference } from './protocol/typed-tool';
export { validateJson, formatIssues } from './protocol/json-validation';
export type { ValidationIssue } from './protocol/json-validation';

// ── llm (providers) ───────────────────────────────────────────────────────────
export type { Provider, ProviderRequest, ProviderResponse, Usage } from './llm/provider';

// ── runtime (request pipeline, executor, modules) ─────────────────────────────

// ── decorators ────────────────────────────────────────────────────────────────

// ── container ─────────────────────────────────────────────────────────────────

// ── agent loop ────────────────────────────────────────────────────────────────
export type { StepModule } from './runtime/loop/step-module';

// ── codegen ───────────────────────────────────────────────────────────────────
