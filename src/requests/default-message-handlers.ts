import { renderMessage } from '../protocol/render-messages';
import type { Message, MessageType } from '../protocol/message';
import type { MessageHandler } from './message-handler';

function renderTypes(name: string, types: readonly MessageType[]): MessageHandler {
  return Object.freeze({
    name,
    matches: (message: Message) => types.includes(message.type),
    render: (message: Message) => [renderMessage(message)],
  });
}

/** The built-in handlers, made once: they hold no state, and every request uses them. @internal */
export const DEFAULT_MESSAGE_HANDLERS: readonly MessageHandler[] = Object.freeze([
  renderTypes('system', ['system']),
  renderTypes('text', ['text']),
  renderTypes('data', ['data', 'input', 'state']),
  renderTypes('result', ['result']),
]);

/**
 * The built-in handlers, one per message type (R-REQ-2): `system` → a system message, `text` →
 * its role, `data`/`input`/`state` → one user block in seed 004's layout, `result` → a user block
 * with the call and its outcome. `request()` always registers them first; pass your own handlers
 * in `handlers` to override or extend them.
 */
export function defaultMessageHandlers(): MessageHandler[] {
  return [...DEFAULT_MESSAGE_HANDLERS];
}
