import type { ChatMessage } from '../protocol/message';

/**
 * Where the prompt's stable prefix ends, for providers with explicit prompt caching (Anthropic's
 * `cache_control`; others ignore `ProviderRequest.cacheBreakpoints`): the last of the leading system
 * messages (the part no turn changes) and the last message (the next turn's prompt starts with this
 * one: the history only grows and rendering is deterministic, R-REQ-1, R-DATA-3). At most two
 * indexes, within Anthropic's limit of four breakpoints; none for an empty prompt.
 */
export function cacheBreakpoints(messages: readonly ChatMessage[]): number[] {
  if (messages.length === 0) return [];
  let systemEnd = -1;
  while (systemEnd + 1 < messages.length && messages[systemEnd + 1]?.role === 'system') systemEnd++;
  const last = messages.length - 1;
  return systemEnd < 0 || systemEnd === last ? [last] : [systemEnd, last];
}
