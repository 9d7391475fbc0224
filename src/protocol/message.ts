import type { Call, CallError } from './call';
import type { JSONSchema } from './json-schema';
import type { OutputMethod } from './output-method';

/** Who speaks a text message; `user` when absent. */
export type Role = 'user' | 'assistant';

/** An instruction from the system/developer. */
export interface SystemMessage {
  type: 'system';
  text: string;
}

/** Free text, passed to the LLM unchanged. */
export interface TextMessage {
  type: 'text';
  role?: Role;
  text: string;
  /**
   * An assistant message's reasoning (thinking) as the model returned it, sent back with the message
   * to providers that keep reasoning across turns; never rendered as text.
   */
  reasoning?: ReasoningPart[];
}

/**
 * A piece of a model's reasoning (thinking): its text, and what the provider attached to it (e.g.
 * Anthropic's `signature` or redacted data under `providerMetadata.anthropic`), which must go back
 * unchanged for the provider to accept it on a later turn. Plain JSON.
 */
export interface ReasoningPart {
  text: string;
  /** Provider-specific data by provider name, kept verbatim (the AI SDK's provider metadata). */
  providerMetadata?: Record<string, Record<string, unknown>>;
}

/**
 * What a Call's output write records on the data message it appends (R-OUT-5); never shown to the
 * LLM. A message without `_outputMethod` and `_outputPath` is a plain patch (R-DATA-1).
 */
export interface OutputWriteFields {
  /** The path written, as a reference: `†state.user.city` (`†state` = the whole State). */
  _outputPath?: string;
  /** How the value was written (R-OUT-3); `set` when absent on a message that has `_outputPath`. */
  _outputMethod?: OutputMethod;
  /** The id of the Call that wrote it: `<vessel node id>:<index>` in the agent loop. */
  _call?: string;
  /** When it was written (ISO 8601). */
  _date?: string;
}

/**
 * A persistent, structured context message (seed 004). Messages with the same identity
 * (`kind` + `_instance`) merge by JSON Merge Patch (R-DATA-1); output writes fold by their method
 * (R-OUT-6).
 */
export interface DataMessage extends OutputWriteFields {
  type: 'data';
  kind?: string;
  data: unknown;
  schema?: JSONSchema;
  description?: string;
  _instance?: string;
}

/** Shorthand for a data message of kind `input`: the params a callable Idea receives. */
export interface InputMessage {
  type: 'input';
  input: unknown;
  schema?: JSONSchema;
  description?: string;
  _instance?: string;
}

/** Shorthand for a data message of kind `state`: the persistent memory of a run. */
export interface StateMessage extends OutputWriteFields {
  type: 'state';
  state: unknown;
  schema?: JSONSchema;
  description?: string;
  _instance?: string;
}

/** A Call's outcome fed back to the LLM on the next Request (R-CALL-5). */
export interface ResultMessage {
  type: 'result';
  call: Call;
  output?: unknown;
  error?: CallError;
}

/** Any context message; discriminated by `type` (DESIGN.md §2). */
export type Message =
  SystemMessage | TextMessage | DataMessage | InputMessage | StateMessage | ResultMessage;

/** The `type` values a Message can have. */
export type MessageType = Message['type'];

/** A message as the LLM API receives it: a role and plain text content. */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
  /** An assistant message's reasoning, sent back to providers that keep it across turns ({@link ReasoningPart}). */
  reasoning?: ReasoningPart[];
}
