import { UnhandledMessageError } from '../errors/unhandled-message.error';
import { isPromiseLike } from '../internal/is-promise-like';
import { mergeDataMessages } from '../protocol/merge-data';
import type { JSONSchema } from '../protocol/json-schema';
import type { ChatMessage, Message } from '../protocol/message';
import { DEFAULT_MESSAGE_HANDLERS } from './default-message-handlers';
import type { MessageHandler, RequestConfig, RequestDraft } from './message-handler';

/**
 * Runs the message-handler pipeline (R-REQ-2): merges data messages, renders each message with the
 * most recently registered matching handler, then runs every `finish()`. Built from scratch on
 * every call (R-REQ-1). Useful on its own to inspect what a request would send.
 */
export async function prepareRequest(
  input: { context: Message[]; schema: JSONSchema },
  config: RequestConfig,
  handlers: readonly MessageHandler[] = [],
): Promise<RequestDraft> {
  const pipeline =
    handlers.length === 0 ? DEFAULT_MESSAGE_HANDLERS : [...DEFAULT_MESSAGE_HANDLERS, ...handlers];
  const context = mergeDataMessages(input.context);
  const draft: RequestDraft = {
    context,
    messages: [],
    schema: input.schema,
    config: { ...config },
  };
  for (const [index, message] of context.entries()) {
    let rendered = renderWithPipeline(message, draft, pipeline);
    // Only asynchronous handlers cost a promise: the history is re-rendered every turn (R-REQ-1).
    if (isPromiseLike(rendered)) rendered = await rendered;
    if (rendered === undefined) {
      throw new UnhandledMessageError({
        index,
        messageType: String((message as { type?: unknown }).type),
        handlers: pipeline.map((handler) => handler.name),
      });
    }
    for (const chat of rendered) draft.messages.push(chat);
  }
  for (const handler of pipeline) {
    const finished = handler.finish?.(draft);
    // Only an asynchronous finish() costs a turn of the microtask queue.
    if (isPromiseLike(finished)) await finished;
  }
  return draft;
}

type Rendered = ChatMessage[] | undefined;

/** The first matching handler's render, newest first; synchronous unless a handler is asynchronous. */
function renderWithPipeline(
  message: Message,
  draft: RequestDraft,
  pipeline: readonly MessageHandler[],
  from = pipeline.length - 1,
): Rendered | Promise<Rendered> {
  for (let index = from; index >= 0; index--) {
    const handler = pipeline[index];
    if (handler.render === undefined || handler.matches?.(message) !== true) continue;
    const rendered = handler.render(message, draft);
    if (isPromiseLike(rendered)) {
      return Promise.resolve(rendered).then((value) =>
        value !== undefined ? value : renderWithPipeline(message, draft, pipeline, index - 1),
      );
    }
    if (rendered !== undefined) return rendered;
  }
  return undefined;
}
