import type { JSONSchema } from './json-schema';
import type { Message } from './message';

/** A data, input or state message seen uniformly as data of a kind (seed 004). */
export interface DataMessageView {
  /** The data kind (`input` / `state` for the shorthands); absent for a kind-less data message. */
  kind?: string;
  /** The payload (`data`, `input` or `state`). */
  data: unknown;
  /** JSON Schema explaining the payload to the LLM. */
  schema?: JSONSchema;
  /** One-line explanation printed under the payload. */
  description?: string;
  /** The instance the message belongs to; absent = global (R-INST-1). */
  instance?: string;
}

/**
 * Normalises `data` / `input` / `state` messages to one shape, so merge, render, references and
 * imports treat the shorthands as data of kind `input` / `state`. Undefined for other message types.
 */
export function dataView(message: Message): DataMessageView | undefined {
  let view: DataMessageView;
  switch (message.type) {
    case 'data':
      view = { data: message.data };
      if (message.kind !== undefined) view.kind = message.kind;
      break;
    case 'input':
      view = { kind: 'input', data: message.input };
      break;
    case 'state':
      view = { kind: 'state', data: message.state };
      break;
    default:
      return undefined;
  }
  if (message.schema !== undefined) view.schema = message.schema;
  if (message.description !== undefined) view.description = message.description;
  if (message._instance !== undefined) view.instance = message._instance;
  return view;
}

/**
 * The kind a message answers to in `_imports` and references: its data kind for data/input/state
 * messages, else its message type (`text`, `system`, `result`). Kind-less data answers to `data`.
 * @internal
 */
export function messageKind(message: Message): string {
  const view = dataView(message);
  return view?.kind ?? message.type;
}

/**
 * True for a message that carries an Idea's input: an `input` message, or `data` of kind `input`
 * (the two spellings of seed 004). @internal
 */
export function isInputMessage(message: Message): boolean {
  return message.type === 'input' || (message.type === 'data' && message.kind === 'input');
}

/** The instance a message belongs to (a result message: its Call's `_instance`). @internal */
export function messageInstance(message: Message): string | undefined {
  if (message.type === 'result') {
    const instance = message.call?._instance;
    return typeof instance === 'string' ? instance : undefined;
  }
  if (message.type === 'system' || message.type === 'text') return undefined;
  return message._instance;
}
