import type OpenAI from 'openai';
import type { APIConnectionError } from 'openai';
import { lazyModule } from '../../internal/lazy-module';
import type { ChatCompletionCreateParamsStreaming } from 'openai/resources/chat/completions';
import { MissingApiKeyError } from '../../errors/missing-api-key.error';
import { ProviderApiError } from '../../errors/provider-api.error';
import { ProviderTimeoutError } from '../../errors/provider-timeout.error';
import { ProviderUnreachableError } from '../../errors/provider-unreachable.error';
import { RequestAbortedError } from '../../errors/request-aborted.error';
import { parseReplies, type ReplyText } from '../parse-replies';
import type { Provider, ProviderChunk, ProviderRequest, ProviderResponse } from '../provider';
import { ProviderStream } from '../stream/provider-stream';
import { emptyUsage } from '../usage';
import { type StructuredOutputMode, buildChatRequestBody } from './chat-request-body';
import { converterFor, finishReasonsOf, parseCompletion, usageOf } from './parse-completion';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use (import cost)
const openai = lazyModule(() => require('openai') as typeof import('openai'));

/** The model used when neither the `model` option nor `IDEACT_MODEL` names one. */
export const DEFAULT_OPENAI_MODEL = 'gpt-4o-mini';
const DEFAULT_BASE_URL = 'https://api.openai.com/v1';
/** Sent as the key to servers that need none (Ollama, vLLM, llama.cpp) when only a base URL is set. */
const PLACEHOLDER_API_KEY = 'ideact-no-key';

/** Options of {@link OpenAIProvider}; each falls back to an environment variable or a default. */
export interface OpenAIProviderOptions {
  /** API key; default `OPENAI_API_KEY`. Optional when `baseURL` points to a server that needs none. */
  apiKey?: string;
  /** Base URL of any OpenAI-compatible server; default `OPENAI_BASE_URL`, else OpenAI's. */
  baseURL?: string;
  /** Model name; default `IDEACT_MODEL`, else `gpt-4o-mini`. A request's own `model` wins. */
  model?: string;
  /** `json_schema` (default: strict structured output) or `json_object` for servers without it. */
  mode?: StructuredOutputMode;
  /**
   * Retries after the first attempt on 408, 409, 429, 5xx, timeouts and connection errors (default 2),
   * done by the `openai` client: it waits `retry-after-ms` / `Retry-After`, else backs off from 0.5 s.
   */
  maxRetries?: number;
  /** Timeout of one HTTP attempt in milliseconds, the client's `timeout` (default 60 000). */
  timeoutMs?: number;
  /** Sampling temperature; a request's own `temperature` wins. Omitted from the body when unset. */
  temperature?: number;
  /**
   * Upper bound of generated tokens per option. Sent as `max_completion_tokens` to OpenAI's own URL
   * and as the widely supported `max_tokens` to other base URLs (Ollama, vLLM, llama.cpp).
   */
  maxOutputTokens?: number;
  /** Where the env fallbacks are read from (default `process.env`); lets tests and CLIs pass their own. */
  env?: Record<string, string | undefined>;
}

/**
 * A Provider for OpenAI and any OpenAI-compatible server (Ollama, vLLM, llama.cpp, gateways) through
 * the official `openai` client and the Chat Completions endpoint. Structured output is strict
 * `json_schema` (schema converted with `toStrictSchema`, reply converted back) or `json_object`.
 * Retries, backoff (honouring Retry-After) and the per-attempt timeout are the client's own; its
 * final error becomes ideact's typed error (ProviderApiError and subclasses, RequestAbortedError).
 */
export class OpenAIProvider implements Provider {
  /** `openai:<model>`, shown in progress output. */
  readonly name: string;
  /** The model requests use unless they name their own. */
  readonly model: string;
  /** The base URL requests go to. */
  readonly baseURL: string;
  /** The structured output mode. */
  readonly mode: StructuredOutputMode;
  private readonly client: OpenAI;
  private readonly timeoutMs: number;
  private readonly temperature?: number;
  private readonly maxOutputTokens?: number;

  /** Throws `MissingApiKeyError` when neither a key nor a base URL is configured. */
  constructor(options: OpenAIProviderOptions = {}) {
    const env = options.env ?? process.env;
    const apiKey = nonEmpty(options.apiKey) ?? nonEmpty(env.OPENAI_API_KEY);
    const baseURL = nonEmpty(options.baseURL) ?? nonEmpty(env.OPENAI_BASE_URL);
    if (apiKey === undefined && baseURL === undefined) throw new MissingApiKeyError();
    this.baseURL = (baseURL ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
    // `IDEACT_MODEL=openai:gpt-4.1` names this provider's model with its prefix.
    this.model =
      nonEmpty(options.model) ??
      nonEmpty(env.IDEACT_MODEL)?.replace(/^openai:/, '') ??
      DEFAULT_OPENAI_MODEL;
    this.mode = options.mode ?? 'json_schema';
    this.name = `openai:${this.model}`;
    this.timeoutMs = options.timeoutMs ?? 60_000;
    this.temperature = options.temperature;
    this.maxOutputTokens = options.maxOutputTokens;
    this.client = new (openai().default)({
      apiKey: apiKey ?? PLACEHOLDER_API_KEY,
      baseURL: this.baseURL,
      maxRetries: Math.max(0, Math.floor(options.maxRetries ?? 2)),
      timeout: this.timeoutMs,
    });
  }

  /** The Chat Completions endpoint, as named in errors. */
  get url(): string {
    return `${this.baseURL}/chat/completions`;
  }

  /** Sends the request (the client retries) and returns the parsed, not yet validated options. */
  async generate(request: ProviderRequest): Promise<ProviderResponse> {
    const body = this.bodyFor(request);
    const completion = await this.send(request.signal, (client) =>
      client.chat.completions.create(body, { signal: request.signal }),
    );
    return parseCompletion(completion, request.schema, this.mode);
  }

  /**
   * Streams the reply (`stream: true`, usage included); `response()` of the result parses the
   * concatenated text exactly as `generate()` does. Aborting the request's signal closes the stream.
   */
  stream(request: ProviderRequest): ProviderStream {
    return new ProviderStream(this.streamChunks(request), this.name);
  }

  private async *streamChunks(
    request: ProviderRequest,
  ): AsyncGenerator<ProviderChunk, ProviderResponse, undefined> {
    const body: ChatCompletionCreateParamsStreaming = {
      ...this.bodyFor(request),
      stream: true,
      stream_options: { include_usage: true },
    };
    const signal = request.signal;
    const progress: AttemptProgress = { attempts: 0, lastTimedOut: false };
    const chunks = await this.send(
      signal,
      (client) => client.chat.completions.create(body, { signal }),
      progress,
    );
    const replies = new Map<number, ReplyText>();
    let usage: ProviderResponse['usage'] | undefined;
    let model: string | undefined;
    try {
      for await (const chunk of chunks) {
        model = chunk.model || model;
        for (const choice of chunk.choices ?? []) {
          const reply = replies.get(choice.index) ?? { index: choice.index, content: '' };
          replies.set(choice.index, reply);
          const delta = choice.delta;
          if (typeof delta?.refusal === 'string')
            reply.refusal = (reply.refusal ?? '') + delta.refusal;
          if (typeof delta?.content === 'string' && delta.content !== '') {
            reply.content += delta.content;
            yield { type: 'text-delta', delta: delta.content, index: choice.index };
          }
          if (choice.finish_reason) {
            reply.finishReason = choice.finish_reason;
            yield { type: 'finish', finishReason: choice.finish_reason, index: choice.index };
          }
        }
        if (chunk.usage) {
          usage = usageOf(chunk.usage);
          yield { type: 'usage', usage };
        }
      }
    } catch (error) {
      throw this.translate(error, progress, signal);
    }
    if (signal?.aborted) throw new RequestAbortedError({ url: this.url, cause: signal.reason });
    if (usage === undefined) {
      usage = emptyUsage();
      yield { type: 'usage', usage };
    }
    const options = parseReplies([...replies.values()], {
      model,
      convert: converterFor(request.schema, this.mode),
      jsonOnly: this.mode === 'json_schema',
    });
    const response: ProviderResponse = { options, usage, raw: { streamed: true, model } };
    if (model !== undefined) response.model = model;
    const finishReasons = finishReasonsOf([...replies.values()]);
    if (finishReasons !== undefined) response.finishReasons = finishReasons;
    return response;
  }

  private bodyFor(request: ProviderRequest): ReturnType<typeof buildChatRequestBody> {
    return buildChatRequestBody(request, {
      model: this.model,
      mode: this.mode,
      temperature: this.temperature,
      maxOutputTokens: this.maxOutputTokens,
      maxTokensField: this.baseURL === DEFAULT_BASE_URL ? 'max_completion_tokens' : 'max_tokens',
    });
  }

  /** Runs `call` on a client whose fetches are counted; its final error becomes a typed error. */
  private async send<T>(
    signal: AbortSignal | undefined,
    call: (client: OpenAI) => Promise<T>,
    progress: AttemptProgress = { attempts: 0, lastTimedOut: false },
  ): Promise<T> {
    if (signal?.aborted) throw new RequestAbortedError({ url: this.url, cause: signal.reason });
    // The client retries and times out by itself; watching its fetches gives the errors' `attempts`
    // and tells a timeout for sure (the client's own test fails for a fetch from another realm, as
    // under jest, and reports a plain connection error).
    const client = this.client.withOptions({
      fetch: async (input, init) => {
        progress.attempts += 1;
        progress.lastTimedOut = false;
        try {
          return await fetch(input, init);
        } catch (error) {
          progress.lastTimedOut = init?.signal?.aborted === true && signal?.aborted !== true;
          throw error;
        }
      },
    });
    try {
      return await untilAborted(call(client), signal);
    } catch (error) {
      throw this.translate(error, progress, signal);
    }
  }

  /** Turns the client's final error into ideact's typed error; anything unknown passes through. */
  private translate(
    error: unknown,
    progress: AttemptProgress,
    signal: AbortSignal | undefined,
  ): Error {
    const url = this.url;
    const attempts = Math.max(1, progress.attempts);
    if (signal?.aborted) return new RequestAbortedError({ url, cause: error });
    const client = openai();
    if (
      error instanceof client.APIConnectionTimeoutError ||
      (error instanceof client.APIConnectionError && progress.lastTimedOut)
    ) {
      return new ProviderTimeoutError({ url, attempts, timeoutMs: this.timeoutMs, cause: error });
    }
    if (error instanceof client.APIConnectionError) {
      return new ProviderUnreachableError({
        url,
        attempts,
        detail: describeCause(error),
        cause: error,
      });
    }
    if (error instanceof client.APIError) {
      return new ProviderApiError({
        url,
        status: error.status,
        attempts,
        detail: error.message,
        cause: error,
      });
    }
    return error instanceof Error ? error : new Error(String(error));
  }
}

/**
 * Settles like `pending`, but rejects as soon as `signal` aborts: the client notices an abort only
 * when its retry wait (possibly a long Retry-After) is over. The late settlement is ignored.
 */
function untilAborted<T>(pending: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return pending;
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    pending.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** What the client's fetches of one request did, for the final error. */
interface AttemptProgress {
  /** HTTP attempts made so far (1 + retries). */
  attempts: number;
  /** Whether the last attempt ended because the client's per-attempt timeout aborted it. */
  lastTimedOut: boolean;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

function describeCause(error: APIConnectionError): string {
  const parts = [error.message];
  let cause: unknown = error.cause;
  for (let depth = 0; depth < 3 && cause instanceof Error; depth++) {
    const code = (cause as { code?: unknown }).code;
    parts.push(typeof code === 'string' ? `${cause.message} [${code}]` : cause.message);
    cause = cause.cause;
  }
  return [...new Set(parts)].join(': ');
}
