import { dataView, type DataMessageView } from './data-view';
import { formatJson } from './format-json';
import { mergeDataMessages } from './merge-data';
import type { ChatMessage, Message, ResultMessage } from './message';
import { readOutputWrite } from './output-write';

/**
 * Turns context messages into what the LLM sees (R-DATA-2, R-DATA-3): data messages are merged
 * first, then each becomes one user text block in seed 004's layout; `system` → role system; `text`
 * passes through with its role (user by default); `result` → a user block with the call and outcome.
 * Deterministic: equal inputs give byte-identical output.
 */
export function renderMessages(messages: Message[]): ChatMessage[] {
  return mergeDataMessages(messages).map(renderMessage);
}

/**
 * Renders ONE message as is (no merging); see {@link renderMessages}. An output write (R-OUT-5) shows
 * the value it writes onto nothing (a `push` as a one-item array), never its metadata. Pure: no
 * cache, so a message edited in place renders its new content (the agent loop's IncrementalRenderer
 * caches per turn).
 */
export function renderMessage(message: Message): ChatMessage {
  if (message.type === 'system') return { role: 'system', content: message.text };
  if (message.type === 'text') {
    const chat: ChatMessage = { role: message.role ?? 'user', content: message.text };
    // Reasoning travels beside the text (providers send it back as thinking), never inside it.
    if (message.reasoning !== undefined && message.reasoning.length > 0) {
      chat.reasoning = message.reasoning;
    }
    return chat;
  }
  if (message.type !== 'result' && readOutputWrite(message) !== undefined) {
    return { role: 'user', content: renderContent(mergeDataMessages([message])[0] as Message) };
  }
  return { role: 'user', content: renderContent(message) };
}

function renderContent(message: Message): string {
  switch (message.type) {
    case 'result':
      return renderResult(message);
    default:
      return renderData(dataView(message) as DataMessageView);
  }
}

/**
 * The text block of one (merged) data view, e.g.
 * `## Data: ¶user (instance ①)` / JSON / description / `Schema for ¶user:` / schema JSON.
 */
export function renderData(view: DataMessageView): string {
  const instance = view.instance === undefined ? '' : ` (instance ${view.instance})`;
  const lines: string[] = [
    view.kind === undefined ? `## Data${instance}` : `## Data: ¶${view.kind}${instance}`,
    formatJson(view.data),
  ];
  if (view.description !== undefined) lines.push(view.description);
  if (view.schema !== undefined) {
    lines.push(view.kind === undefined ? 'Schema:' : `Schema for ¶${view.kind}:`);
    lines.push(formatJson(view.schema));
  }
  return lines.join('\n');
}

function renderResult(message: ResultMessage): string {
  // The Call as written, without a latent Tool's `_output` (copied only when it has one: every
  // result of every turn is rendered once, issue 28).
  let call: Record<string, unknown> = message.call;
  if (call !== undefined && call !== null && Object.hasOwn(call, '_output')) {
    call = { ...call };
    delete call._output;
  }
  const head = `## Result of ${String(message.call?._tool)}\n${formatJson(call)}\n`;
  if (message.error !== undefined) {
    return `${head}Error ${message.error.code}: ${message.error.message}`;
  }
  return `${head}Output:\n${formatJson(message.output === undefined ? null : message.output)}`;
}
