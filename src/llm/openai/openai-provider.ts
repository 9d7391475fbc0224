import type OpenAI from 'openai';
import type { APIConnectionError } from 'openai';
import { lazyModule } from '../../internal/lazy-module';
import type { ChatCompletion } from 'openai/resources/chat/completions';
import { MissingApiKeyError } from '../../errors/missing-api-key.error';
import { ProviderApiError } from '../../errors/provider-api.error';
import { ProviderTimeoutError } from '../../errors/provider-timeout.error';
import { ProviderUnreachableError } from '../../errors/provider-unreachable.error';
import { RequestAbortedError } from '../../errors/request-aborted.error';
import type { Provider, ProviderRequest, ProviderResponse } from '../provider';
import { type StructuredOutputMode, buildChatRequestBody } from './chat-request-body';
import { parseCompletion } from './parse-completion';
import {
  type RetryPolicy,
  backoffMs,
  isRetryableStatus,
  retryAfterMs,
  sleep,
} from './retry-policy';

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
  /** Retries after the first attempt on 429, 5xx, timeouts and connection errors (default 2). */
  maxRetries?: number;
  /** Timeout of one HTTP attempt in milliseconds (default 60 000). */
  timeoutMs?: number;
  /** Sampling temperature; a request's own `temperature` wins. Omitted from the body when unset. */
  temperature?: number;
  /**
   * Upper bound of generated tokens per option. Sent as `max_completion_tokens` to OpenAI's own URL
   * and as the widely supported `max_tokens` to other base URLs (Ollama, vLLM, llama.cpp).
   */
  maxOutputTokens?: number;
  /** Base of the jittered exponential backoff in milliseconds (default 500; tests use 1). */
  retryBaseDelayMs?: number;
  /** Upper bound of one backoff delay in milliseconds (default 20 000). */
  maxRetryDelayMs?: number;
  /** Where the env fallbacks are read from (default `process.env`); lets tests and CLIs pass their own. */
  env?: Record<string, string | undefined>;
  /** Replaces the wait between attempts (receives the delay in ms); for tests that count delays. */
  sleep?: (milliseconds: number, signal?: AbortSignal) => Promise<void>;
}

/**
 * A Provider for OpenAI and any OpenAI-compatible server (Ollama, vLLM, llama.cpp, gateways) through
 * the official `openai` client and the Chat Completions endpoint. Structured output is strict
 * `json_schema` (schema converted with `toStrictSchema`, reply converted back) or `json_object`.
 * Retries are ideact's own (the client's are off) so they are bounded, observable and testable.
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
  private readonly retry: RetryPolicy;
  private readonly wait: (milliseconds: number, signal?: AbortSignal) => Promise<void>;

  /** Throws `MissingApiKeyError` when neither a key nor a base URL is configured. */
  constructor(options: OpenAIProviderOptions = {}) {
    const env = options.env ?? process.env;
    const apiKey = nonEmpty(options.apiKey) ?? nonEmpty(env.OPENAI_API_KEY);
    const baseURL = nonEmpty(options.baseURL) ?? nonEmpty(env.OPENAI_BASE_URL);
    if (apiKey === undefined && baseURL === undefined) throw new MissingApiKeyError();
    this.baseURL = (baseURL ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
    this.model = nonEmpty(options.model) ?? nonEmpty(env.IDEACT_MODEL) ?? DEFAULT_OPENAI_MODEL;
    this.mode = options.mode ?? 'json_schema';
    this.name = `openai:${this.model}`;
    this.timeoutMs = options.timeoutMs ?? 60_000;
    this.temperature = options.temperature;
    this.maxOutputTokens = options.maxOutputTokens;
    this.retry = {
      maxRetries: Math.max(0, options.maxRetries ?? 2),
      baseDelayMs: options.retryBaseDelayMs ?? 500,
      maxDelayMs: options.maxRetryDelayMs ?? 20_000,
    };
    this.wait = options.sleep ?? sleep;
    this.client = new (openai().default)({
      apiKey: apiKey ?? PLACEHOLDER_API_KEY,
      baseURL: this.baseURL,
      maxRetries: 0,
      timeout: this.timeoutMs,
    });
  }

  /** The Chat Completions endpoint, as named in errors. */
  get url(): string {
    return `${this.baseURL}/chat/completions`;
  }

  /** Sends the request (with bounded retries) and returns the parsed, not yet validated options. */
  async generate(request: ProviderRequest): Promise<ProviderResponse> {
    const body = buildChatRequestBody(request, {
      model: this.model,
      mode: this.mode,
      temperature: this.temperature,
      maxOutputTokens: this.maxOutputTokens,
      maxTokensField: this.baseURL === DEFAULT_BASE_URL ? 'max_completion_tokens' : 'max_tokens',
    });
    const completion = await this.send(body, request.signal);
    return parseCompletion(completion, request.schema, this.mode);
  }

  private async send(
    body: ReturnType<typeof buildChatRequestBody>,
    signal: AbortSignal | undefined,
  ): Promise<ChatCompletion> {
    for (let attempt = 1; ; attempt++) {
      if (signal?.aborted) throw new RequestAbortedError({ url: this.url, cause: signal.reason });
      // Our own per-attempt timeout: we know for sure it fired (the client's abort errors are
      // indistinguishable from connection errors in some runtimes).
      const attemptController = new AbortController();
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        attemptController.abort();
      }, this.timeoutMs);
      const forwardAbort = (): void => attemptController.abort();
      signal?.addEventListener('abort', forwardAbort, { once: true });
      try {
        return await this.client.chat.completions.create(body, {
          signal: attemptController.signal,
          timeout: this.timeoutMs + 1000,
        });
      } catch (error) {
        const failure = this.classify(error, attempt, signal, timedOut);
        if (!failure.retryable || attempt > this.retry.maxRetries) throw failure.error;
        const delay = failure.retryAfter ?? backoffMs(attempt, this.retry);
        try {
          await this.wait(delay, signal);
        } catch (abort) {
          throw new RequestAbortedError({ url: this.url, cause: abort });
        }
      } finally {
        clearTimeout(timer);
        signal?.removeEventListener('abort', forwardAbort);
      }
    }
  }

  private classify(
    error: unknown,
    attempt: number,
    signal: AbortSignal | undefined,
    timedOut: boolean,
  ): { error: Error; retryable: boolean; retryAfter?: number } {
    const url = this.url;
    if (signal?.aborted) {
      return { error: new RequestAbortedError({ url, cause: error }), retryable: false };
    }
    if (
      timedOut ||
      error instanceof openai().APIConnectionTimeoutError ||
      error instanceof openai().APIUserAbortError
    ) {
      return {
        error: new ProviderTimeoutError({
          url,
          attempts: attempt,
          timeoutMs: this.timeoutMs,
          cause: error,
        }),
        retryable: true,
      };
    }
    if (error instanceof openai().APIConnectionError) {
      return {
        error: new ProviderUnreachableError({
          url,
          attempts: attempt,
          detail: describeCause(error),
          cause: error,
        }),
        retryable: true,
      };
    }
    if (error instanceof openai().APIError) {
      return {
        error: new ProviderApiError({
          url,
          status: error.status,
          attempts: attempt,
          detail: error.message,
          cause: error,
        }),
        retryable: isRetryableStatus(error.status),
        retryAfter: retryAfterMs(error.headers),
      };
    }
    return { error: error instanceof Error ? error : new Error(String(error)), retryable: false };
  }
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
