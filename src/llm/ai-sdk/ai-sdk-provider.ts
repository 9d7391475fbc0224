import { RequestAbortedError } from '../../errors/request-aborted.error';
import { UnsupportedModelError } from '../../errors/unsupported-model.error';
import { untilAborted } from '../../internal/until-aborted';
import type { ReasoningPart } from '../../protocol/message';
import { parseReplies, type ReplyText } from '../parse-replies';
import type {
  Provider,
  ProviderChunk,
  ProviderRequest,
  ProviderResponse,
  Usage,
} from '../provider';
import { ProviderStream } from '../stream/provider-stream';
import { addUsage, emptyUsage } from '../usage';
import { translateAiSdkError } from './ai-sdk-errors';
import { abortedError, withRetries, type RetrySettings } from './ai-sdk-retries';
import {
  SUPPORTED_SPECIFICATION_VERSIONS,
  type AiSdkCallOptions,
  type AiSdkLanguageModel,
  type AiSdkProviderData,
} from './ai-sdk-model';
import { toAiSdkPrompt } from './ai-sdk-prompt';
import { finishReasonOf, reasoningOf, resultText, usageOf } from './ai-sdk-result';
import { mergeStreams, readModelStream, type OptionChunk } from './ai-sdk-stream';
import {
  familyOf,
  schemaPlan,
  type AiSdkFamily,
  type SchemaPlan,
  type AiSdkStructuredOutput,
} from './structured-output';

/** Options of {@link aiSdkProvider}. */
export interface AiSdkProviderOptions {
  /**
   * Provider-specific options sent with every call, as the AI SDK passes them, e.g.
   * `{ anthropic: { thinking: { type: 'enabled', budgetTokens: 4000 } } }`.
   */
  providerOptions?: AiSdkProviderData;
  /** Sampling temperature; a request's own `temperature` wins. Omitted when unset. */
  temperature?: number;
  /** Upper bound of generated tokens per option (the package's default when unset). */
  maxOutputTokens?: number;
  /**
   * `native` (default): the schema goes in the JSON response format, in the family's form;
   * `prompt`: JSON mode with the schema in a system message, for servers that reject schemas.
   */
  structuredOutput?: AiSdkStructuredOutput;
  /** The provider family, when the model's provider id does not tell it (docs/providers.md). */
  family?: AiSdkFamily;
  /**
   * Retries after the first attempt (default 2) when the package says the error is retryable
   * (408, 409, 429, 5xx, connection errors), waiting what the server asks (`retry-after-ms`,
   * `Retry-After`), else 0.5 s doubling up to 8 s.
   */
  maxRetries?: number;
  /** A server's requested wait above this (default 60 000 ms) ends the retries at once. */
  maxRetryDelayMs?: number;
  /**
   * Send a Vessel's reasoning back on later turns (default: true for Anthropic, whose extended
   * thinking must get its thinking blocks back; other families ignore reasoning in the prompt).
   */
  sendReasoning?: boolean;
  /**
   * The model for a request that names another one (`request.model`, e.g. a module Idea's `model`
   * setting): `(name) => anthropic(name)`. Without it such a request fails with UnsupportedModelError.
   */
  modelFor?: (modelName: string) => AiSdkLanguageModel | PromiseLike<AiSdkLanguageModel>;
  /** The provider's name in progress output and events; default `<family or provider>:<modelId>`. */
  name?: string;
  /** The variable the API key comes from (e.g. `ANTHROPIC_API_KEY`), named in auth errors. */
  keyVariable?: string;
  /** Extra HTTP headers sent with every call. */
  headers?: Record<string, string>;
}

/** A model, or how to load one on first use (the CLI loads the provider package lazily). @internal */
export interface LazyLanguageModel {
  /** `<prefix>:<modelId>`, known before loading. */
  name: string;
  modelId: string;
  load(): Promise<AiSdkLanguageModel>;
}

/**
 * Turns a LanguageModel of any AI SDK provider package (`anthropic('claude-sonnet-4-5')`,
 * `google('gemini-2.5-flash')`, an OpenAI-compatible local server…; specification `v3` of ai@6's
 * packages or `v4` of ai@7's) into an ideact Provider: structured output in the family's form
 * (docs/providers.md), streaming with reasoning deltas, usage with cached and reasoning tokens,
 * `n > 1` as several calls, abort, retries, and the package's errors as ideact's typed errors.
 */
export function aiSdkProvider(
  model: AiSdkLanguageModel,
  options: AiSdkProviderOptions = {},
): AiSdkProvider {
  return new AiSdkProvider(model, options);
}

/** The Provider {@link aiSdkProvider} returns. */
export class AiSdkProvider implements Provider {
  /** `<family or provider>:<modelId>`, e.g. `anthropic:claude-sonnet-4-5`. */
  readonly name: string;
  /** The model id requests use unless they name another. */
  readonly model: string;
  private readonly options: AiSdkProviderOptions;
  private readonly source: AiSdkLanguageModel | LazyLanguageModel;
  private loaded?: Promise<AiSdkLanguageModel>;
  private readonly others = new Map<string, Promise<AiSdkLanguageModel>>();

  constructor(model: AiSdkLanguageModel | LazyLanguageModel, options: AiSdkProviderOptions = {}) {
    this.source = model;
    this.options = options;
    if (isLazy(model)) {
      this.name = options.name ?? model.name;
    } else {
      checkSpecification(model);
      this.name = options.name ?? `${familyName(model)}:${model.modelId}`;
    }
    this.model = model.modelId;
  }

  /** Calls the model `n` times at once (the specification has no `n`) and parses each reply. */
  async generate(request: ProviderRequest): Promise<ProviderResponse> {
    const signal = request.signal;
    if (signal?.aborted) throw new RequestAbortedError({ cause: signal.reason });
    const model = await untilAborted(this.modelOf(request), signal, abortedError);
    const { call, plan } = this.callFor(model, request);
    const count = Math.max(1, Math.floor(request.n ?? 1));
    const results = await Promise.all(
      Array.from({ length: count }, () =>
        this.retried(() => model.doGenerate(call), request, signal),
      ),
    );
    const replies: ReplyText[] = [];
    const reasoning: ReasoningPart[][] = [];
    let usage = emptyUsage();
    let modelId: string | undefined;
    results.forEach((result, index) => {
      replies.push(
        replyOf(
          index,
          resultText(result.content, result.structuredOutputText),
          finishReasonOf(result.finishReason),
        ),
      );
      reasoning.push(reasoningOf(result.content));
      usage = addUsage(usage, usageOf(result.usage));
      modelId ??= result.response?.modelId;
    });
    return this.response(replies, reasoning, usage, modelId ?? model.modelId, plan, results);
  }

  /** Streams the reply (reasoning and text deltas, finish, usage); `n > 1` streams `n` calls at once. */
  stream(request: ProviderRequest): ProviderStream {
    return new ProviderStream(this.streamChunks(request), this.name);
  }

  private async *streamChunks(
    request: ProviderRequest,
  ): AsyncGenerator<ProviderChunk, ProviderResponse, undefined> {
    const signal = request.signal;
    if (signal?.aborted) throw new RequestAbortedError({ cause: signal.reason });
    const model = await untilAborted(this.modelOf(request), signal, abortedError);
    const { call, plan } = this.callFor(model, request);
    // One signal for the HTTP streams: the request's abort, or the reader leaving early (`break`).
    const controller = new AbortController();
    const onAbort = (): void => controller.abort(signal?.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    const streamCall: AiSdkCallOptions = { ...call, abortSignal: controller.signal };
    const count = Math.max(1, Math.floor(request.n ?? 1));
    const replies = new Map<number, ReplyText>();
    const reasoning = new Map<number, ReasoningPart[]>();
    let usage = emptyUsage();
    let modelId: string | undefined;
    let finished = false;
    try {
      const streams = await Promise.all(
        Array.from({ length: count }, (_, index) =>
          this.retried(() => model.doStream(streamCall), request, signal).then((result) =>
            readModelStream(result.stream, index, controller.signal),
          ),
        ),
      );
      for await (const item of mergeStreams<OptionChunk>(streams)) {
        // Nothing reaches the reader after an abort, not even a chunk already received.
        if (signal?.aborted) break;
        if (item.type === 'error') throw item.error;
        if (item.type === 'done') {
          replies.set(item.index, replyOf(item.index, item.text, item.finishReason));
          reasoning.set(item.index, item.reasoning);
          usage = addUsage(usage, item.usage);
          modelId ??= item.modelId;
          yield { type: 'finish', finishReason: item.finishReason, index: item.index };
          continue;
        }
        yield item.chunk;
      }
      finished = true;
    } catch (error) {
      if (signal?.aborted) throw new RequestAbortedError({ cause: signal.reason });
      throw translateAiSdkError(error, { ...this.context(request), attempts: 1 });
    } finally {
      signal?.removeEventListener('abort', onAbort);
      if (!finished) controller.abort(new Error('the stream was closed before its end'));
    }
    if (signal?.aborted) throw new RequestAbortedError({ cause: signal.reason });
    yield { type: 'usage', usage };
    const indexes = [...replies.keys()].sort((left, right) => left - right);
    return this.response(
      indexes.map((index) => replies.get(index) as ReplyText),
      indexes.map((index) => reasoning.get(index) ?? []),
      usage,
      modelId ?? model.modelId,
      plan,
      { streamed: true },
    );
  }

  /** The parsed options, with the reasoning of the options kept (refused or cut-off ones dropped). */
  private response(
    replies: ReplyText[],
    reasoning: ReasoningPart[][],
    usage: Usage,
    model: string,
    plan: SchemaPlan,
    raw: unknown,
  ): ProviderResponse {
    const options = parseReplies(replies, { model, convert: plan.convert });
    const response: ProviderResponse = {
      options,
      usage,
      model,
      finishReasons: replies.map((reply) => reply.finishReason ?? 'unknown'),
      raw,
    };
    // parseReplies drops refused, filtered and truncated replies; reasoning follows the kept ones.
    const kept = replies
      .map((reply, index) => ({ reply, index }))
      .filter(({ reply }) => !dropped(reply))
      .map(({ index }) => reasoning[index] ?? []);
    if (kept.length === options.length && kept.some((parts) => parts.length > 0)) {
      response.reasoning = kept;
    }
    return response;
  }

  /** The call options of one request for `model`, and how its schema is sent. */
  private callFor(
    model: AiSdkLanguageModel,
    request: ProviderRequest,
  ): { call: AiSdkCallOptions; plan: SchemaPlan } {
    const family = this.options.family ?? familyOf(model);
    const plan = schemaPlan(
      request.schema,
      request.schemaName,
      family,
      this.options.structuredOutput ?? 'native',
      model,
    );
    const prompt = toAiSdkPrompt(request.messages, {
      hoistSystem: family === 'anthropic' || family === 'google',
      sendReasoning: this.options.sendReasoning ?? family === 'anthropic',
      cacheBreakpoints: request.cacheBreakpoints,
      cacheMark:
        family === 'anthropic' ? { anthropic: { cacheControl: { type: 'ephemeral' } } } : undefined,
      instruction: plan.instruction,
    });
    const call: AiSdkCallOptions = {
      prompt,
      responseFormat: {
        type: 'json',
        ...(plan.responseSchema === undefined ? {} : { schema: plan.responseSchema }),
        ...(request.schemaName === undefined ? {} : { name: schemaName(request.schemaName) }),
      },
    };
    const temperature = request.temperature ?? this.options.temperature;
    if (temperature !== undefined) call.temperature = temperature;
    if (this.options.maxOutputTokens !== undefined) {
      call.maxOutputTokens = this.options.maxOutputTokens;
    }
    if (this.options.providerOptions !== undefined) {
      call.providerOptions = this.options.providerOptions;
    }
    if (this.options.headers !== undefined) call.headers = this.options.headers;
    if (request.signal !== undefined) call.abortSignal = request.signal;
    return { call, plan };
  }

  /** The model a request asks for: this one, or `modelFor(request.model)` for another name. */
  private modelOf(request: ProviderRequest): Promise<AiSdkLanguageModel> {
    const asked = request.model;
    if (asked === undefined || asked === this.model || asked === this.name) return this.own();
    const known = this.others.get(asked);
    if (known !== undefined) return known;
    const modelFor = this.options.modelFor;
    if (modelFor === undefined) {
      return Promise.reject(
        new UnsupportedModelError({
          model: asked,
          reason:
            `a request asks for "${asked}" but this provider serves ${this.name}. ` +
            'Pass `modelFor: (name) => <provider>(name)` to aiSdkProvider, or drop the model setting.',
        }),
      );
    }
    const created = Promise.resolve(modelFor(asked)).then((model) => {
      checkSpecification(model);
      return model;
    });
    created.catch(() => this.others.delete(asked));
    this.others.set(asked, created);
    return created;
  }

  private own(): Promise<AiSdkLanguageModel> {
    const source = this.source;
    if (!isLazy(source)) return Promise.resolve(source);
    if (this.loaded === undefined) {
      this.loaded = source.load().then((model) => {
        checkSpecification(model);
        return model;
      });
      this.loaded.catch(() => (this.loaded = undefined));
    }
    return this.loaded;
  }

  /** One model call with the bounded retries ({@link withRetries}); its final error is ideact's. */
  private retried<T>(
    call: () => PromiseLike<T>,
    request: ProviderRequest,
    signal: AbortSignal | undefined,
  ): Promise<T> {
    return withRetries(call, {
      maxRetries: this.options.maxRetries,
      maxRetryDelayMs: this.options.maxRetryDelayMs,
      signal,
      context: this.context(request),
    });
  }

  private context(request: ProviderRequest): RetrySettings['context'] {
    return {
      ...(request.schemaName === undefined ? {} : { schemaName: request.schemaName }),
      ...(this.options.keyVariable === undefined ? {} : { keyVariable: this.options.keyVariable }),
    };
  }
}

function isLazy(model: AiSdkLanguageModel | LazyLanguageModel): model is LazyLanguageModel {
  return typeof (model as LazyLanguageModel).load === 'function';
}

/** Fails at once for a model of a specification ideact does not speak (e.g. `v2` of ai@5). */
function checkSpecification(model: AiSdkLanguageModel): void {
  if (SUPPORTED_SPECIFICATION_VERSIONS.includes(model.specificationVersion)) return;
  throw new UnsupportedModelError({
    model: `${model.provider}:${model.modelId}`,
    reason:
      `its specification version is "${String(model.specificationVersion)}"; aiSdkProvider supports ` +
      `${SUPPORTED_SPECIFICATION_VERSIONS.join(' and ')} (the provider packages of ai@6 and ai@7). ` +
      'Upgrade the provider package (npm install @ai-sdk/<provider>@latest).',
  });
}

/** `anthropic` of `anthropic.messages`, `google` of `google.generative-ai`, the whole id otherwise. */
function familyName(model: AiSdkLanguageModel): string {
  return model.provider.split('.')[0] || model.provider;
}

/** The JSON-mode name vendors accept (OpenAI's rule: letters, digits, `_`, `-`, at most 64). */
function schemaName(name: string): string {
  const cleaned = name.replace(/[^a-zA-Z0-9_-]+/g, '_').slice(0, 64);
  return cleaned === '' ? 'solution' : cleaned;
}

/** A finished option; a content-filtered one's text is the refusal (Anthropic's `refusal` stop). */
function replyOf(index: number, content: string, finishReason: string): ReplyText {
  const reply: ReplyText = { index, content, finishReason };
  if (finishReason === 'content_filter' && content.trim() !== '') reply.refusal = content;
  return reply;
}

function dropped(reply: ReplyText): boolean {
  return (
    (typeof reply.refusal === 'string' && reply.refusal !== '') ||
    reply.finishReason === 'content_filter' ||
    reply.finishReason === 'length'
  );
}
