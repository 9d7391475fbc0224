import type { JSONSchema } from '../protocol/json-schema';
import type { ChatMessage, Message } from '../protocol/message';
import type { RequestConfig } from '../runs/request-config';

export type { RequestConfig } from '../runs/request-config';

/**
 * The request under construction, handed to every handler in turn. Handlers append rendered chat
 * messages and may change the schema and the config; the context is rebuilt for every request.
 */
export interface RequestDraft {
  /** The context after data messages were merged (R-DATA-1); read it, do not change it. */
  readonly context: readonly Message[];
  /** The chat messages rendered so far, in context order. */
  messages: ChatMessage[];
  /** The JSON Schema the solution must satisfy; a handler may replace it. */
  schema: JSONSchema;
  /** Model settings; a handler may change them. */
  config: RequestConfig;
}

/**
 * Renders context messages for the LLM and may adjust the request (R-REQ-2). For each message the
 * most recently registered handler whose `matches()` accepts it renders it (returning `undefined`
 * passes it on to earlier handlers); then every handler's `finish()` runs in registration order.
 * User handlers are registered after the defaults, so they override them.
 */
export interface MessageHandler {
  /** Shown in errors and debugging output. */
  readonly name: string;
  /** True for the messages this handler renders (e.g. `message.type === 'data' && message.kind === 'image'`). */
  matches?(message: Message): boolean;
  /**
   * Renders one (merged) message to zero or more chat messages; may also change `draft.schema` and
   * `draft.config`. Returns `undefined` to leave the message to an earlier registered handler.
   */
  render?(
    message: Message,
    draft: RequestDraft,
  ): ChatMessage[] | undefined | Promise<ChatMessage[] | undefined>;
  /** Runs once after all messages are rendered; may rewrite `draft.messages`, the schema or the config. */
  finish?(draft: RequestDraft): void | Promise<void>;
}
