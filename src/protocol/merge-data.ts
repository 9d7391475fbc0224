import { applyMergePatchInPlace, cloneJson } from './merge-patch';
import { dataView, type DataMessageView } from './data-view';
import type { Message } from './message';

/**
 * Merges data messages of the same identity — `kind` + `_instance`, with the `input` / `state`
 * shorthands counting as kinds `input` / `state` — into one message at the position of the first
 * (R-DATA-1). Data merge by RFC 7386 JSON Merge Patch in order; the last given `schema` /
 * `description` wins; the merged message keeps the first one's type. Kind-less data never merges.
 * Inputs are never mutated; cost is linear in the size of the messages.
 */
export function mergeDataMessages(messages: Message[]): Message[] {
  const groups = new Map<string, MergeGroup>();
  const output: Array<Message | MergeGroup> = [];
  for (const message of messages) {
    const view = dataView(message);
    if (view === undefined || view.kind === undefined) {
      output.push(message);
      continue;
    }
    const key = identityKey(view.kind, view.instance);
    const group = groups.get(key);
    if (group === undefined) {
      const created = new MergeGroup(message, view);
      groups.set(key, created);
      output.push(created);
      continue;
    }
    if (group.merged === undefined) {
      group.merged = { ...group.view, data: cloneJson(group.view.data) };
    }
    group.merged.data = applyMergePatchInPlace(group.merged.data, view.data);
    if (view.schema !== undefined) group.merged.schema = view.schema;
    if (view.description !== undefined) group.merged.description = view.description;
  }
  return output.map((entry) => (isGroup(entry) ? groupMessage(entry) : entry));
}

/** Stable identity key of a kind + instance pair. @internal */
export function identityKey(kind: string, instance: string | undefined): string {
  return JSON.stringify([kind, instance ?? null]);
}

class MergeGroup {
  /** Set once a second message of the identity arrives; holds an owned, mutable copy. */
  merged: DataMessageView | undefined = undefined;
  constructor(
    readonly first: Message,
    readonly view: DataMessageView,
  ) {}
}

function isGroup(entry: Message | MergeGroup): entry is MergeGroup {
  return entry instanceof MergeGroup;
}

function groupMessage(group: MergeGroup): Message {
  if (group.merged === undefined) return group.first;
  return messageFromView(group.first.type, group.merged);
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
