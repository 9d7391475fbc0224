import { foldMessages, valueAtPath, type WriteFallback } from './data-fold';
import { dataView, type DataMessageView } from './data-view';
import type { Message } from './message';
import { readOutputWrite } from './output-write';

/**
 * Merges data messages of the same identity — `kind` + `_instance`, with the `input` / `state`
 * shorthands counting as kinds `input` / `state` — into one message at the position of the first
 * (R-DATA-1). Data merge by RFC 7386 JSON Merge Patch in order; output writes (R-OUT-5) fold by
 * their method (R-OUT-6), and their metadata (`_call`, `_date`, `_outputMethod`, `_outputPath`) is
 * left out; the last given `schema` / `description` wins; the merged message keeps the first one's
 * type. Kind-less data never merges. Inputs are never mutated; cost is linear in the messages' size.
 */
export function mergeDataMessages(messages: Message[]): Message[] {
  return mergeIdentities(messages, false);
}

/**
 * Like {@link mergeDataMessages}, but only for the identities that hold output writes (R-OUT-10):
 * what `selectImports` hands an Activity or a module, so it never has to fold writes itself, while
 * plain data messages reach it exactly as before. @internal
 */
export function foldOutputWrites(messages: readonly Message[]): Message[] {
  return mergeIdentities(messages, true);
}

/** Stable identity key of a kind + instance pair. @internal */
export function identityKey(kind: string, instance: string | undefined): string {
  return JSON.stringify([kind, instance ?? null]);
}

/** True for the messages that carry data (the only ones {@link dataView} reads). */
function mayMerge(message: Message): boolean {
  return message.type === 'data' || message.type === 'input' || message.type === 'state';
}

/** The messages of one identity, gathered at the position of the first. */
interface Group {
  first: Message;
  view: DataMessageView & { kind: string };
  messages: Message[];
  hasWrite: boolean;
}

function mergeIdentities(messages: readonly Message[], onlyWrites: boolean): Message[] {
  // Only data, input and state messages merge: a list without one (most turns' new messages)
  // comes back as it is, without the groups' maps (issue 28).
  if (!messages.some(mayMerge)) return [...messages];
  const written = onlyWrites ? writtenIdentities(messages) : undefined;
  if (written !== undefined && written.size === 0) return [...messages];
  const groups = new Map<string, Group>();
  const globals = new Map<string, Message[]>();
  const output: Array<Message | Group> = [];
  for (const message of messages) {
    const view = dataView(message);
    if (view === undefined || view.kind === undefined) {
      output.push(message);
      continue;
    }
    if (view.instance === undefined) {
      const list = globals.get(view.kind);
      if (list === undefined) globals.set(view.kind, [message]);
      else list.push(message);
    }
    const key = identityKey(view.kind, view.instance);
    if (written !== undefined && !written.has(key)) {
      output.push(message);
      continue;
    }
    const hasWrite = readOutputWrite(message) !== undefined;
    const group = groups.get(key);
    if (group === undefined) {
      const created: Group = {
        first: message,
        view: view as Group['view'],
        messages: [message],
        hasWrite,
      };
      groups.set(key, created);
      output.push(created);
    } else {
      group.messages.push(message);
      group.hasWrite ||= hasWrite;
    }
  }
  const globalData = new Map<string, unknown>();
  const fallbackFor =
    (kind: string): WriteFallback =>
    (path) => {
      if (!globalData.has(kind)) {
        const list = globals.get(kind);
        globalData.set(kind, list === undefined ? undefined : foldMessages(list).data);
      }
      return valueAtPath(globalData.get(kind), path);
    };
  return output.map((entry) => (isGroup(entry) ? groupMessage(entry, fallbackFor) : entry));
}

/** Keys of the identities with at least one output write. */
function writtenIdentities(messages: readonly Message[]): Set<string> {
  const keys = new Set<string>();
  for (const message of messages) {
    if (readOutputWrite(message) === undefined) continue;
    const view = dataView(message) as DataMessageView;
    keys.add(identityKey(view.kind as string, view.instance));
  }
  return keys;
}

function isGroup(entry: Message | Group): entry is Group {
  return (entry as Group).messages !== undefined && (entry as Message).type === undefined;
}

function groupMessage(group: Group, fallbackFor: (kind: string) => WriteFallback): Message {
  if (group.messages.length === 1 && !group.hasWrite) return group.first;
  // An instance's block starts its writes from the global value they change (R-OUT-9).
  const fallback =
    group.hasWrite && group.view.instance !== undefined ? fallbackFor(group.view.kind) : undefined;
  const folded = foldMessages(group.messages, fallback);
  const view: DataMessageView = { kind: group.view.kind, data: folded.data };
  if (folded.schema !== undefined) view.schema = folded.schema;
  if (folded.description !== undefined) view.description = folded.description;
  if (group.view.instance !== undefined) view.instance = group.view.instance;
  return messageFromView(group.first.type, view);
}

/** Builds a message of `type` (data / input / state) carrying `view`. @internal */
export function messageFromView(type: Message['type'], view: DataMessageView): Message {
  let message: Message;
  if (type === 'input') message = { type: 'input', input: view.data };
  else if (type === 'state') message = { type: 'state', state: view.data };
  else {
    message = { type: 'data', kind: view.kind, data: view.data };
    if (view.kind === undefined) delete message.kind;
  }
  if (view.schema !== undefined) message.schema = view.schema;
  if (view.description !== undefined) message.description = view.description;
  if (view.instance !== undefined) message._instance = view.instance;
  return message;
}
