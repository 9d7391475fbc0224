import { UnhandledMessageError } from '../../errors/unhandled-message.error';
import { mergeDataMessages } from '../../protocol/merge-data';
import type { JSONSchema } from '../../protocol/json-schema';
import type { ChatMessage, Message } from '../../protocol/message';
import { defaultMessageHandlers } from './default-message-handlers';
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
  const pipeline = [...defaultMessageHandlers(), ...handlers];
  const context = mergeDataMessages(input.context);
  const draft: RequestDraft = {
    context,
    messages: [],
    schema: input.schema,
    config: { ...config },
  };
  for (const [index, message] of context.entries()) {
    const rendered = await renderWithPipeline(message, draft, pipeline);
    if (rendered === undefined) {
      throw new UnhandledMessageError({
        index,
        messageType: String((message as { type?: unknown }).type),
        handlers: pipeline.map((handler) => handler.name),
      });
    }
    draft.messages.push(...rendered);
  }
  for (const handler of pipeline) await handler.finish?.(draft);
  return draft;
}

async function renderWithPipeline(
  message: Message,
  draft: RequestDraft,
  pipeline: readonly MessageHandler[],
): Promise<ChatMessage[] | undefined> {
  for (let index = pipeline.length - 1; index >= 0; index--) {
    const handler = pipeline[index];
    if (handler.render === undefined || handler.matches?.(message) !== true) continue;
    const rendered = await handler.render(message, draft);
    if (rendered !== undefined) return rendered;
  }
  return undefined;
}
