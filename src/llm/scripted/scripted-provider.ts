import { hasBrand, setBrand } from '../../internal/brand';
import { ScriptExhaustedError } from '../../errors/script-exhausted.error';
import { ScriptIncompleteError } from '../../errors/script-incomplete.error';
import { ScriptedSolutionError } from '../../errors/scripted-solution.error';
import { findJsonDepthViolation } from '../../protocol/json-depth';
import { cloneJson } from '../../protocol/merge-patch';
import { validatorFor, type JsonValidator } from '../../protocol/json-validation';
import { RequestAbortedError } from '../../errors/request-aborted.error';
import type { ChatMessage } from '../../protocol/message';
import type { Provider, ProviderChunk, ProviderRequest, ProviderResponse } from '../provider';
import { ProviderStream } from '../stream/provider-stream';
import { optionText, responseChunks } from '../stream/reply-chunks';
import { UnparsedOption } from '../unparsed-option';

const OPTIONS_MARKER = Symbol.for('ideact.scriptedOptions');

/** Several options answering one request with `n > 1`; create it with `ScriptedProvider.options()`. */
export class ScriptedOptions {
  /** The options, in order. */
  readonly options: readonly unknown[];
  constructor(options: readonly unknown[]) {
    this.options = options;
  }

  /** True for a ScriptedOptions value (also from another copy of the package). */
  static isInstance(value: unknown): value is ScriptedOptions {
    return hasBrand(value, OPTIONS_MARKER);
  }
}
// Branded once on the prototype (its instances inherit it): no per-instance property (issue 28).
setBrand(ScriptedOptions.prototype, OPTIONS_MARKER);

/** A request schema as recorded: the copy in `requests`, and its validator once compiled. */
interface RecordedSchema {
  copy: ProviderRequest['schema'];
  validator?: JsonValidator;
}

/** A function that answers a request: the request and its zero-based index → the solution. */
export type ScriptFunction = (request: ProviderRequest, index: number) => unknown;

/**
 * One script entry: a solution value, `ScriptedProvider.options([...])`, `ScriptedProvider.raw(text)`,
 * or a {@link ScriptFunction} returning one of those (possibly as a Promise).
 */
export type ScriptEntry = unknown;

/** Options of {@link ScriptedProvider}. */
export interface ScriptedProviderOptions {
  /** Validate every scripted option against the request's schema (default true). */
  validate?: boolean;
  /** Replaces the provider name (`scripted`). */
  name?: string;
  /** How `stream()` delivers each reply: in pieces of `chunkSize` characters, `delayMs` apart. */
  stream?: ScriptedStreamOptions;
}

/** Streaming of {@link ScriptedProvider}, for tests and demos of streaming code. */
export interface ScriptedStreamOptions {
  /** Characters per text delta (default: the whole reply in one delta). */
  chunkSize?: number;
  /** Milliseconds to wait before each text delta (default 0; works with jest's fake timers). */
  delayMs?: number;
}

/**
 * A Provider for tests and demos that replays scripted solutions and records every request in
 * `requests` (what a module or agent really sent). Validates each solution against the request's
 * schema, so a wrong script fails loudly (one nested deeper than MAX_JSON_DEPTH is left to the request
 * pipeline, which repairs it); `assertComplete()` checks every entry was used. A schema or message
 * object is recorded (copied) the first time a request sends it, as ideact's agents never edit one.
 */
export class ScriptedProvider implements Provider {
  /** `scripted`, or the name given in the options. */
  readonly name: string;
  /** Every request received, in order (messages and schema are copies taken on arrival). */
  readonly requests: ProviderRequest[] = [];
  private readonly entries: ScriptEntry[];
  private readonly responder?: ScriptFunction;
  private readonly validate: boolean;
  /** Per schema object a request sent: its recorded copy, and its validator once compiled. */
  private readonly schemas = new WeakMap<object, RecordedSchema>();
  /** Per message object a request sent: its recorded copy (a run sends each one on every turn). */
  private readonly messageCopies = new WeakMap<ChatMessage, ChatMessage>();
  /** The last request's messages, their records and characters (the next request extends them). */
  private lastSent: { sent: readonly ChatMessage[]; recorded: ChatMessage[]; characters: number } =
    {
      sent: [],
      recorded: [],
      characters: 0,
    };
  private readonly streaming: ScriptedStreamOptions;

  /** `script`: the entries to replay in order, or one function answering every request. */
  constructor(
    script: readonly ScriptEntry[] | ScriptFunction,
    options: ScriptedProviderOptions = {},
  ) {
    if (typeof script === 'function') {
      this.entries = [];
      this.responder = script as ScriptFunction;
    } else {
      this.entries = [...script];
    }
    this.validate = options.validate ?? true;
    this.name = options.name ?? 'scripted';
    this.streaming = { ...options.stream };
  }

  /** Answers one request with several options (for requests with `n > 1`). */
  static options(options: readonly unknown[]): ScriptedOptions {
    return new ScriptedOptions(options);
  }

  /** A reply whose text is not JSON (never validated), to test repair of unparseable output. */
  static raw(text: string): UnparsedOption {
    return new UnparsedOption(text, 'the scripted reply is not valid JSON');
  }

  /** How many requests were answered so far. */
  get used(): number {
    return this.requests.length;
  }

  /** How many scripted entries are still unused (0 for a function script). */
  get remaining(): number {
    return this.responder ? 0 : Math.max(0, this.entries.length - this.requests.length);
  }

  /** Appends entries to the script (e.g. after inspecting the first requests). */
  push(...entries: ScriptEntry[]): this {
    this.entries.push(...entries);
    return this;
  }

  /** Throws `ScriptIncompleteError` when some scripted entries were never requested. */
  assertComplete(): void {
    if (this.remaining > 0) {
      throw new ScriptIncompleteError({
        scripted: this.entries.length,
        used: this.requests.length,
      });
    }
  }

  /** Replays the next entry; throws `ScriptExhaustedError` when none is left. */
  async generate(request: ProviderRequest): Promise<ProviderResponse> {
    return this.answer(request);
  }

  /**
   * Replays the next entry as a stream (recorded and validated like `generate()`): each option's
   * JSON text in `stream.chunkSize` pieces, `stream.delayMs` apart; aborting the signal stops it.
   */
  stream(request: ProviderRequest): ProviderStream {
    return new ProviderStream(this.streamChunks(request), this.name);
  }

  private async *streamChunks(
    request: ProviderRequest,
  ): AsyncGenerator<ProviderChunk, ProviderResponse, undefined> {
    const response = await this.answer(request);
    const delayMs = this.streaming.delayMs ?? 0;
    for (const chunk of responseChunks(response, this.streaming.chunkSize)) {
      if (chunk.type === 'text-delta' && delayMs > 0) await sleep(delayMs, request.signal);
      if (request.signal?.aborted) throw new RequestAbortedError({ cause: request.signal.reason });
      yield chunk;
    }
    return response;
  }

  /**
   * What this provider keeps of a request's schema, once per schema object: an agent sends the same
   * object on every turn (it never edits it), and copying, re-reading and re-compiling it per request
   * cost more than the turn itself (issue 28).
   */
  private recordedSchema(schema: ProviderRequest['schema']): RecordedSchema {
    if (typeof schema !== 'object' || schema === null) return { copy: schema };
    let recorded = this.schemas.get(schema);
    if (recorded === undefined) {
      recorded = { copy: copy(schema) };
      this.schemas.set(schema, recorded);
    }
    return recorded;
  }

  /**
   * A recorded message: its own object, made once per message object (a run's context grows each
   * turn and the agent replaces a message rather than editing it); the text, a string, is shared.
   */
  private recordedMessage(message: ChatMessage): ChatMessage {
    let recorded = this.messageCopies.get(message);
    if (recorded === undefined) {
      recorded = { ...message };
      if (message.reasoning !== undefined) recorded.reasoning = copy(message.reasoning);
      this.messageCopies.set(message, recorded);
    }
    return recorded;
  }

  /**
   * The request's messages as recorded, and their characters (the usage estimate). A run sends its
   * history again on every turn: the part the last request sent (the same message objects) reuses
   * that request's records, so only what was added is copied and counted.
   */
  private recordedMessages(sent: readonly ChatMessage[]): {
    messages: ChatMessage[];
    characters: number;
  } {
    const previous = this.lastSent;
    const messages: ChatMessage[] = new Array<ChatMessage>(sent.length);
    let index = 0;
    while (
      index < sent.length &&
      index < previous.sent.length &&
      sent[index] === previous.sent[index]
    ) {
      messages[index] = previous.recorded[index] as ChatMessage;
      index += 1;
    }
    let characters = 0;
    if (index === previous.sent.length) characters = previous.characters;
    else
      for (let position = 0; position < index; position += 1)
        characters += (sent[position] as ChatMessage).content.length;
    for (; index < sent.length; index += 1) {
      const message = sent[index] as ChatMessage;
      messages[index] = this.recordedMessage(message);
      characters += message.content.length;
    }
    // A copy of the array: the caller may change its own array before the next request.
    this.lastSent = { sent: sent.slice(), recorded: messages, characters };
    return { messages, characters };
  }

  private async answer(request: ProviderRequest): Promise<ProviderResponse> {
    const index = this.requests.length;
    const schema = this.recordedSchema(request.schema);
    const { messages, characters } = this.recordedMessages(request.messages);
    this.requests.push({ ...request, messages, schema: schema.copy });
    let entry: unknown;
    if (this.responder) {
      entry = await this.responder(request, index);
    } else {
      if (index >= this.entries.length) {
        const last = request.messages[request.messages.length - 1]?.content;
        throw new ScriptExhaustedError({
          scripted: this.entries.length,
          lastMessage: last?.slice(0, 120),
        });
      }
      entry = this.entries[index];
      if (typeof entry === 'function') entry = await (entry as ScriptFunction)(request, index);
    }
    const options = ScriptedOptions.isInstance(entry) ? [...entry.options] : [entry];
    for (const option of options) {
      if (!this.validate || UnparsedOption.isInstance(option)) continue;
      // Too deep to validate safely: the request pipeline rejects it by its depth (R-REQ-3).
      if (findJsonDepthViolation(option) !== undefined) continue;
      schema.validator ??= validatorFor(schema.copy);
      const issues = schema.validator(option);
      if (issues.length > 0) {
        throw new ScriptedSolutionError({
          index,
          schemaName: request.schemaName ?? 'solution',
          issues,
        });
      }
    }
    // A JSON value's copy (what parsing the reply would give) without structuredClone's fixed cost;
    // cloneJson recurses, so a value nested too deep for it is copied by structuredClone.
    const answers = options.map((option) =>
      UnparsedOption.isInstance(option)
        ? option
        : findJsonDepthViolation(option) === undefined
          ? cloneJson(option)
          : copy(option),
    );
    return {
      options: answers,
      usage: {
        inputTokens: Math.ceil(characters / 4),
        outputTokens: Math.ceil(
          answers.reduce<number>((sum, option) => sum + textLength(option), 0) / 4,
        ),
        cachedTokens: 0,
      },
      raw: { provider: this.name, index },
    };
  }
}

/** Waits `ms`, or rejects with RequestAbortedError as soon as `signal` aborts. */
function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new RequestAbortedError({ cause: signal.reason }));
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new RequestAbortedError({ cause: signal?.reason }));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function copy<T>(value: T): T {
  if (value === undefined) return value;
  try {
    return structuredClone(value);
  } catch {
    return value;
  }
}

function textLength(option: unknown): number {
  return optionText(option).length;
}
