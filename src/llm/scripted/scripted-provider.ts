import { hasBrand, setBrand } from '../../internal/brand';
import { ScriptExhaustedError } from '../../errors/script-exhausted.error';
import { ScriptIncompleteError } from '../../errors/script-incomplete.error';
import { ScriptedSolutionError } from '../../errors/scripted-solution.error';
import { validateJson } from '../../protocol/json-validation';
import { RequestAbortedError } from '../../errors/request-aborted.error';
import type { Provider, ProviderChunk, ProviderRequest, ProviderResponse } from '../provider';
import { ProviderStream } from '../stream/provider-stream';
import { responseChunks } from '../stream/reply-chunks';
import { UnparsedOption } from '../unparsed-option';

const OPTIONS_MARKER = Symbol.for('ideact.scriptedOptions');

/** Several options answering one request with `n > 1`; create it with `ScriptedProvider.options()`. */
export class ScriptedOptions {
  /** The options, in order. */
  readonly options: readonly unknown[];
  constructor(options: readonly unknown[]) {
    this.options = options;
    setBrand(this, OPTIONS_MARKER);
  }

  /** True for a ScriptedOptions value (also from another copy of the package). */
  static isInstance(value: unknown): value is ScriptedOptions {
    return hasBrand(value, OPTIONS_MARKER);
  }
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
 * schema, so a wrong script fails loudly; `assertComplete()` checks every entry was used.
 */
export class ScriptedProvider implements Provider {
  /** `scripted`, or the name given in the options. */
  readonly name: string;
  /** Every request received, in order (messages and schema are copies taken on arrival). */
  readonly requests: ProviderRequest[] = [];
  private readonly entries: ScriptEntry[];
  private readonly responder?: ScriptFunction;
  private readonly validate: boolean;
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

  private async answer(request: ProviderRequest): Promise<ProviderResponse> {
    const index = this.requests.length;
    this.requests.push({
      ...request,
      messages: copy(request.messages),
      schema: copy(request.schema),
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
    for (const option of options) {
      if (!this.validate || UnparsedOption.isInstance(option)) continue;
      const issues = validateJson(request.schema, option);
      if (issues.length > 0) {
        throw new ScriptedSolutionError({
          index,
          schemaName: request.schemaName ?? 'solution',
          issues,
        });
      }
    }
    const answers = options.map((option) =>
      UnparsedOption.isInstance(option) ? option : copy(option),
    );
    return {
      options: answers,
      usage: {
        inputTokens: Math.ceil(
          request.messages.reduce((sum, message) => sum + message.content.length, 0) / 4,
        ),
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
  if (UnparsedOption.isInstance(option)) return option.rawText.length;
  return JSON.stringify(option)?.length ?? 0;
}
