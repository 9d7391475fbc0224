import { dataView, messageInstance, messageKind } from './data-view';
import type { Message } from './message';

/**
 * R-IMP-1 + R-INST-1: the context messages a Call may see, in order. A kind names a data kind
 * (`input`, `state`, `user`, …) or a message type (`text`, `system`, `result`, `data` = every data,
 * input and state message). With `instance`: global messages plus that instance's; without: all messages of those kinds.
 */
export function selectImports(
  context: readonly Message[],
  kinds: readonly string[],
  instance?: string,
): Message[] {
  const allowed = new Set(kinds);
  return context.filter((message) => {
    const wanted =
      allowed.has(messageKind(message)) ||
      allowed.has(message.type) ||
      (allowed.has('data') && dataView(message) !== undefined);
    if (!wanted) return false;
    if (instance === undefined) return true;
    const owner = messageInstance(message);
    return owner === undefined || owner === instance;
  });
}
