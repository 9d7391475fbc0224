import type { ChatMessage, Message } from '../../protocol/message';

/**
 * Turns rendered chat messages (the Prompter's output) back into protocol messages for a Request:
 * system stays system, the rest become text with their role. Rendering them again is the identity.
 * @internal
 */
export function chatToContext(messages: ChatMessage[]): Message[] {
  return messages.map((message): Message =>
    message.role === 'system'
      ? { type: 'system', text: message.content }
      : { type: 'text', role: message.role, text: message.content },
  );
}
