import { hasBrand, setBrand } from '../../internal/brand';
import { ScriptExhaustedError } from '../../errors/script-exhausted.error';
import { ScriptIncompleteError } from '../../errors/script-incomplete.error';
import { ScriptedSolutionError } from '../../errors/scripted-solution.error';
import { findJsonDepthViolation } from '../../protocol/json-depth';
import { cloneJson } from '../../protocol/merge-patch';
import { compileVesselValidator, type JsonValidator } from '../../protocol/json-validation';
import type { JSONSchema } from '../../protocol/json-schema';
import { RequestAbortedError } from '../../errors/request-aborted.error';
import type { ChatMessage } from '../../protocol/message';
import type { Provider, ProviderChunk, ProviderRequest, ProviderResponse } from '../provider';
import { ProviderStream } from '../stream/provider-stream';
import { optionText, responseChunks } from '../stream/reply-chunks';
import { UnparsedOption } from '../unparsed-option';
import { isAborted } from '../../internal/is-aborted';

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

/**
 * The records of messages sent by requests that each extend the last: append-only (a request's
 * messages are the first `request.messages.length` records), with the characters of all of them.
 */
interface MessageLog {
  sources: ChatMessage[];
  records: ChatMessage[];
  characters: number;
}

/** A replayed entry: the response, and each option's text as `stream()` sends it. */
interface ScriptedReply {
  response: ProviderResponse;
  texts: string[];
}

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
  /** The records of the messages the requests sent, shared by the requests that extend each other. */
  private log: MessageLog = { sources: [], records: [], characters: 0 };
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
    return (await this.answer(request)).response;
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
    const { response, texts } = await this.answer(request);
    const delayMs = this.streaming.delayMs ?? 0;
    for (const chunk of responseChunks(response, this.streaming.chunkSize, texts)) {
      if (chunk.type === 'text-delta' && delayMs > 0) await sleep(delayMs, request.signal);
      if (request.signal !== undefined && isAborted(request.signal))
        throw new RequestAbortedError({ cause: request.signal.reason });
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
   * Records the request's messages in the log: a run sends its history again on every turn, so a
   * request that extends the last one (the same message objects first) appends only what was added;
   * one that does not starts a new log (the old one, frozen, stays with the requests that used it).
   */
  private logMessages(sent: readonly ChatMessage[]): MessageLog {
    const log = this.log;
    const known = log.sources.length;
    let common = 0;
    while (common < sent.length && common < known && sent[common] === log.sources[common]) {
      common += 1;
    }
    if (common === known) {
      for (let index = known; index < sent.length; index += 1) this.append(log, sent[index]);
      return log;
    }
    const fresh: MessageLog = {
      sources: log.sources.slice(0, common),
      records: log.records.slice(0, common),
      characters: 0,
    };
    for (let index = 0; index < common; index += 1) {
      fresh.characters += (sent[index] as ChatMessage).content.length;
    }
    for (let index = common; index < sent.length; index += 1) this.append(fresh, sent[index]);
    this.log = fresh;
    return fresh;
  }

  private append(log: MessageLog, message: ChatMessage | undefined): void {
    const sent = message as ChatMessage;
    log.sources.push(sent);
    log.records.push(this.recordedMessage(sent));
    log.characters += sent.content.length;
  }

  /**
   * Records the request and replays its entry: the response, and each option's text as streamed
   * (made once: the usage estimate counts it, and `stream()` sends it).
   */
  private async answer(request: ProviderRequest): Promise<ScriptedReply> {
    const index = this.requests.length;
    const schema = this.recordedSchema(request.schema);
    const log = this.logMessages(request.messages);
    const characters = log.characters;
    // The log's first records, copied in one piece (the log grows on with later requests).
    this.requests.push({
      ...request,
      messages: log.records.slice(0, request.messages.length),
      schema: schema.copy,
    });
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
    const answers: unknown[] = [];
    const texts: string[] = [];
    let outputCharacters = 0;
    for (const option of options) {
      if (UnparsedOption.isInstance(option)) {
        answers.push(option);
        texts.push(option.rawText);
        outputCharacters += option.rawText.length;
        continue;
      }
      // Too deep to validate or copy by recursion: the request pipeline rejects it by its depth
      // (R-REQ-3); structuredClone copies it.
      const tooDeep = findJsonDepthViolation(option) !== undefined;
      if (this.validate && !tooDeep) {
        schema.validator ??= compileVesselValidator(schema.copy as JSONSchema);
        const issues = schema.validator(option);
        if (issues.length > 0) {
          throw new ScriptedSolutionError({
            index,
            schemaName: request.schemaName ?? 'solution',
            issues,
          });
        }
      }
      // A JSON value's copy (what parsing the reply would give) without structuredClone's fixed cost.
      answers.push(tooDeep ? copy(option) : cloneJson(option));
      const text = optionText(option);
      texts.push(text);
      outputCharacters += text.length;
    }
    const response: ProviderResponse = {
      options: answers,
      usage: {
        inputTokens: Math.ceil(characters / 4),
        outputTokens: Math.ceil(outputCharacters / 4),
        cachedTokens: 0,
      },
      raw: { provider: this.name, index },
    };
    return { response, texts };
  }
}

/** Waits `ms`, or rejects with RequestAbortedError as soon as `signal` aborts. */
function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal !== undefined && isAborted(signal)) {
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
