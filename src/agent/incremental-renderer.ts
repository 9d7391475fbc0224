import { dataView } from '../protocol/data-view';
import { identityKey, mergeDataMessages } from '../protocol/merge-data';
import type { ChatMessage, Message } from '../protocol/message';
import { readOutputWrite } from '../protocol/output-write';
import { renderMessage } from '../protocol/render-messages';

/**
 * Renders a context that grows turn by turn (an agent's history) with the result of
 * `renderMessages(all)` every time (R-REQ-1, R-DATA-1..3), but re-renders only what changed:
 * appended messages, and messages replaced in place (e.g. a trimmed result). A change that moves an
 * earlier merged data block (a new patch of an existing kind) renders the whole context again.
 * Messages are values: a message is recognised by identity, so replace it instead of mutating it.
 * It lives in the runtime, not the protocol, because it caches by identity: the agent's state owns
 * its messages and never edits one in place (pure renderers are in src/protocol).
 */
export class IncrementalRenderer {
  private messages: Message[] = [];
  /** For each message, the index of its chat message, or -1 when it merged into an earlier one. */
  private outputIndex: number[] = [];
  private rendered: ChatMessage[] = [];
  /** Identities (kind + instance) of the data blocks rendered so far. */
  private identities = new Set<string>();
  /** Kinds whose instance blocks start writes from the global value (R-OUT-9). */
  private fallbackKinds = new Set<string>();
  private characterCount = 0;
  /** The array and version the last render read (see `render`'s `version`). */
  private sourceMessages?: readonly Message[];
  private sourceVersion?: number;

  /**
   * The chat messages for `messages`: equal to `renderMessages(messages)`, as a new array. With a
   * `version` — the caller's promise that, while it and the array's identity stay the same, messages
   * were only appended — the messages rendered before are not compared again (issue 28).
   */
  render(messages: readonly Message[], version?: number): ChatMessage[] {
    const appendedOnly =
      version !== undefined && this.sourceMessages === messages && this.sourceVersion === version;
    if (!this.update(messages, appendedOnly)) this.renderAll(messages);
    this.sourceMessages = version === undefined ? undefined : messages;
    this.sourceVersion = version;
    return this.rendered.slice();
  }

  /** Total characters of the last render (what a character-based token estimate needs). */
  get characters(): number {
    return this.characterCount;
  }

  /** Applies in-place replacements and appended messages; false when a full render is needed. */
  private update(messages: readonly Message[], appendedOnly = false): boolean {
    const previous = this.messages;
    if (messages.length < previous.length) return false;
    for (let index = appendedOnly ? previous.length : 0; index < previous.length; index++) {
      const message = messages[index] as Message;
      if (message === previous[index]) continue;
      const before = previous[index] as Message;
      // Only a message that renders on its own, replaced by another such message, maps 1:1.
      if (isDataMessage(message) || isDataMessage(before)) return false;
      const position = this.outputIndex[index] as number;
      const chat = renderMessage(message);
      this.characterCount +=
        chat.content.length - (this.rendered[position] as ChatMessage).content.length;
      this.rendered[position] = chat;
      previous[index] = message;
    }
    const from = previous.length;
    if (messages.length === from) return true;
    if (!hasDataFrom(messages, from)) {
      // No data among the new messages (most turns: a Vessel and its results): each renders on its
      // own, in order — no identities, no merge, no arrays but the renderer's own (issue 28).
      for (let index = from; index < messages.length; index++) {
        const message = messages[index] as Message;
        const chat = renderMessage(message);
        this.outputIndex.push(this.rendered.length);
        this.rendered.push(chat);
        this.characterCount += chat.content.length;
        previous.push(message);
      }
      return true;
    }
    const tail = messages.slice(from);
    // An instance's write may start from the global value (R-OUT-9), and a new global message may
    // change what earlier instance blocks started from: both render the whole context again.
    for (const message of tail) {
      const kind = fallbackKind(message);
      if (kind !== undefined) {
        if (previous.length > 0) return false;
        this.fallbackKinds.add(kind);
      } else if (previous.length > 0 && this.fallbackKinds.has(dataView(message)?.kind ?? '')) {
        return false;
      }
    }
    const tailIdentities = new Set<string>();
    const tailIndex: number[] = [];
    let next = this.rendered.length;
    for (const message of tail) {
      const key = identityOf(message);
      if (key !== undefined && this.identities.has(key)) return false;
      if (key !== undefined && tailIdentities.has(key)) {
        tailIndex.push(-1);
        continue;
      }
      if (key !== undefined) tailIdentities.add(key);
      tailIndex.push(next++);
    }
    for (const chat of mergeDataMessages(tail).map(renderMessage)) {
      this.rendered.push(chat);
      this.characterCount += chat.content.length;
    }
    for (const key of tailIdentities) this.identities.add(key);
    for (const message of tail) previous.push(message);
    for (const position of tailIndex) this.outputIndex.push(position);
    return true;
  }

  private renderAll(messages: readonly Message[]): void {
    this.sourceMessages = undefined;
    this.messages = [];
    this.outputIndex = [];
    this.rendered = [];
    this.identities = new Set();
    this.fallbackKinds = new Set();
    this.characterCount = 0;
    // Appending everything to an empty renderer never needs a full render.
    this.update(messages);
  }
}

/** True when a message from index `from` on is a data message. */
function hasDataFrom(messages: readonly Message[], from: number): boolean {
  for (let index = from; index < messages.length; index++) {
    if (isDataMessage(messages[index] as Message)) return true;
  }
  return false;
}

function isDataMessage(message: Message): boolean {
  return message.type === 'data' || message.type === 'input' || message.type === 'state';
}

/** The kind of an instance's write that may start from the global value (not a `set`). */
function fallbackKind(message: Message): string | undefined {
  if (message.type !== 'data' && message.type !== 'state') return undefined;
  if (message._instance === undefined) return undefined;
  const write = readOutputWrite(message);
  return write === undefined || write.method === 'set' ? undefined : write.kind;
}

/** The merge identity of a data message with a kind; undefined for everything that never merges. */
function identityOf(message: Message): string | undefined {
  const view = dataView(message);
  if (view === undefined || view.kind === undefined) return undefined;
  return identityKey(view.kind, view.instance);
}
