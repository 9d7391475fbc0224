import type { Call, CallError } from './call';
import type { JSONSchema } from './json-schema';

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
}

/**
 * A persistent, structured context message (seed 004). Messages with the same identity
 * (`kind` + `_instance`) merge by JSON Merge Patch (R-DATA-1).
 */
export interface DataMessage {
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
export interface StateMessage {
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
}
