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
  return renderRequest(input, config, handlers);
}

/**
 * {@link prepareRequest} without a promise when every handler answers synchronously (the default
 * ones do): `runRequest` renders the context of every request, and each promise is a turn of the
 * microtask queue (issue 28). Throws what `prepareRequest` rejects with. @internal
 */
export function renderRequest(
  input: { context: Message[]; schema: JSONSchema },
  config: RequestConfig,
  handlers: readonly MessageHandler[] = [],
): RequestDraft | Promise<RequestDraft> {
  const pipeline =
    handlers.length === 0 ? DEFAULT_MESSAGE_HANDLERS : [...DEFAULT_MESSAGE_HANDLERS, ...handlers];
  const context = mergeDataMessages(input.context);
  const draft: RequestDraft = {
    context,
    messages: [],
    schema: input.schema,
    config: { ...config },
  };
  for (let index = 0; index < context.length; index++) {
    const message = context[index] as Message;
    const rendered = renderWithPipeline(message, draft, pipeline);
    // Only asynchronous handlers cost a promise: the rest goes on asynchronously from here.
    if (isPromiseLike(rendered)) return renderRest(draft, pipeline, index, rendered);
    addRendered(draft, pipeline, index, rendered);
  }
  for (let index = 0; index < pipeline.length; index++) {
    const finished = pipeline[index]?.finish?.(draft);
    if (isPromiseLike(finished)) return finishRest(draft, pipeline, index + 1, finished);
  }
  return draft;
}

/** The rest of {@link renderRequest} once the render of message `from` answered with a promise. */
async function renderRest(
  draft: RequestDraft,
  pipeline: readonly MessageHandler[],
  from: number,
  pending: PromiseLike<Rendered>,
): Promise<RequestDraft> {
  addRendered(draft, pipeline, from, await pending);
  for (let index = from + 1; index < draft.context.length; index++) {
    const rendered = await renderWithPipeline(draft.context[index] as Message, draft, pipeline);
    addRendered(draft, pipeline, index, rendered);
  }
  return finishRest(draft, pipeline, 0);
}

/** The `finish()` steps from handler `from` on, after `pending` (the one before it) settles. */
async function finishRest(
  draft: RequestDraft,
  pipeline: readonly MessageHandler[],
  from: number,
  pending?: PromiseLike<unknown>,
): Promise<RequestDraft> {
  await pending;
  for (let index = from; index < pipeline.length; index++) {
    await pipeline[index]?.finish?.(draft);
  }
  return draft;
}

/** Appends message `index`'s chat messages, or throws when no handler rendered it. */
function addRendered(
  draft: RequestDraft,
  pipeline: readonly MessageHandler[],
  index: number,
  rendered: Rendered,
): void {
  if (rendered === undefined) {
    const message = draft.context[index];
    throw new UnhandledMessageError({
      index,
      messageType: String((message as { type?: unknown }).type),
      handlers: pipeline.map((handler) => handler.name),
    });
  }
  for (const chat of rendered) draft.messages.push(chat);
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
