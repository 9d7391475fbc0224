import { SpanKind, type Attributes, type Span } from '@opentelemetry/api';
import { Allow, parse as parsePartialJson } from 'partial-json';
import { IdeactError } from '../errors/ideact-error';
import type { Provider, ProviderRequest, ProviderResponse } from '../llm/provider';
import { optionText } from '../llm/stream/reply-chunks';
import { streamFromProvider } from '../llm/stream/stream-from-provider';
import { UnparsedOption } from '../llm/unparsed-option';
import { findJsonDepthViolation } from '../protocol/json-depth';
import type { ChatMessage } from '../protocol/message';
import type { RunContext } from '../runs/run-context';
import {
  contentJson,
  providerName,
  recordSpanUsage,
  recordsContent,
  tracingIsOff,
  withSpan,
} from '../runs/tracing';

/** How one provider call reports itself: to the run's events, and to a streaming consumer. */
export interface SendObserver {
  /** The run the request belongs to; it gets `request-start`, `solution-delta` and `request-end`. */
  run?: RunContext;
  /** The repair round (0 = first attempt). */
  attempt: number;
  /**
   * Receives every text delta as it arrives (the request then streams from the provider): the
   * Generator's eager calls parse the Vessel as it is written.
   */
  onDelta?: (delta: string, index: number) => void;
}

/**
 * One provider call as a `chat` span (GenAI conventions) and as run events. It streams when someone
 * wants the text early (an `onDelta` hook, or a listener of `solution-delta` events); the response is
 * the same either way (a streamed reply is validated exactly as `generate()`'s).
 */
export function sendRequest(
  provider: Provider,
  request: ProviderRequest,
  observer: SendObserver = { attempt: 0 },
): Promise<ProviderResponse> {
  // A run whose spans nobody records opens none, and while nothing records no span attributes are
  // built either (issue 28: no span objects for nobody).
  if (observer.run?.traced === false || tracingIsOff()) {
    return send(provider, request, observer, undefined);
  }
  const attributes: Attributes = {
    'gen_ai.operation.name': 'chat',
    'gen_ai.provider.name': providerName(provider.name),
  };
  if (request.model !== undefined) attributes['gen_ai.request.model'] = request.model;
  if (request.temperature !== undefined) {
    attributes['gen_ai.request.temperature'] = request.temperature;
  }
  if (request.n !== undefined && request.n !== 1)
    attributes['gen_ai.request.choice.count'] = request.n;
  return withSpan(
    request.model === undefined ? 'chat' : `chat ${request.model}`,
    attributes,
    (span) => send(provider, request, observer, span),
    { kind: SpanKind.CLIENT },
  );
}

/** The provider call itself, its events and usage; `span` is the `chat` span (none: untraced run). */
async function send(
  provider: Provider,
  request: ProviderRequest,
  observer: SendObserver,
  span: Span | undefined,
): Promise<ProviderResponse> {
  if (span !== undefined) recordRequest(span, request);
  const run = observer.run;
  const requestId = run?.nextRequestId() ?? '';
  const listened = run?.listened === true;
  if (listened) emitRequestStart(run, requestId, provider, request, observer.attempt);
  let response: ProviderResponse;
  try {
    // A provider without `stream()` replies in one piece: nothing to gain from replaying it as a
    // stream, so an observed run gets each whole reply as one delta after `generate()`.
    const streams =
      observer.onDelta !== undefined ||
      (run?.observed === true && typeof provider.stream === 'function');
    response = streams
      ? await streamed(provider, request, observer, requestId)
      : await provider.generate(request);
    if (!streams && run?.observed === true) reportWholeReplies(run, requestId, response);
  } catch (error) {
    if (listened) emitRequestFailed(run, requestId, provider, request, error);
    throw error;
  }
  if (span !== undefined) recordResponse(span, response);
  if (run !== undefined) run.recordUsage(response.usage, modelOf(provider, request, response));
  if (listened) emitRequestEnd(run, requestId, provider, request, response);
  return response;
}

/** The `request-start` event; unset fields are left out, not `undefined` (events are plain JSON). */
function emitRequestStart(
  run: RunContext,
  requestId: string,
  provider: Provider,
  request: ProviderRequest,
  attempt: number,
): void {
  run.emit({
    type: 'request-start',
    requestId,
    ...(request.model === undefined ? {} : { model: request.model }),
    ...(provider.name === undefined ? {} : { provider: provider.name }),
    ...(request.schemaName === undefined ? {} : { schemaName: request.schemaName }),
    attempt,
    ...(run.recordsMessages
      ? { messages: request.messages.map(({ role, content }) => ({ role, content })) }
      : {}),
  });
}

/** The `request-end` event of a provider call that failed (no tokens counted). */
function emitRequestFailed(
  run: RunContext,
  requestId: string,
  provider: Provider,
  request: ProviderRequest,
  error: unknown,
): void {
  run.emit({
    type: 'request-end',
    requestId,
    model: request.model ?? provider.name ?? 'unknown',
    usage: { inputTokens: 0, outputTokens: 0, cachedTokens: 0 },
    error: callErrorOf(error),
  });
}

/** The `request-end` event of a reply: its model, usage and finish reasons. */
function emitRequestEnd(
  run: RunContext,
  requestId: string,
  provider: Provider,
  request: ProviderRequest,
  response: ProviderResponse,
): void {
  run.emit({
    type: 'request-end',
    requestId,
    model: modelOf(provider, request, response),
    usage: { ...response.usage },
    ...(response.finishReasons === undefined ? {} : { finishReasons: [...response.finishReasons] }),
  });
}

/** The model a response is accounted to: as reported, else as asked for, else the provider. */
export function modelOf(
  provider: Provider,
  request: ProviderRequest,
  response?: ProviderResponse,
): string {
  return response?.model ?? request.model ?? provider.name ?? 'unknown';
}

/** Reads the provider's stream, reporting deltas (and partial JSON to observed runs) as they come. */
async function streamed(
  provider: Provider,
  request: ProviderRequest,
  observer: SendObserver,
  requestId: string,
): Promise<ProviderResponse> {
  const stream = streamFromProvider(provider, request);
  const texts: string[] = [];
  const partials: Array<{ length: number; value: unknown }> = [];
  const run = observer.run;
  for await (const chunk of stream) {
    if (chunk.type === 'reasoning-delta') {
      if (run?.observed === true && chunk.delta !== '') {
        run.emit({
          type: 'reasoning-delta',
          requestId,
          index: chunk.index ?? 0,
          delta: chunk.delta,
        });
      }
      continue;
    }
    if (chunk.type !== 'text-delta') continue;
    const index = chunk.index ?? 0;
    observer.onDelta?.(chunk.delta, index);
    if (run?.observed === true) {
      const text = (texts[index] ?? '') + chunk.delta;
      texts[index] = text;
      // Re-parsing the whole text for every delta would cost O(n²) per reply: past 2 KB the partial
      // value is refreshed once the text grew by a tenth, and whenever a delta closes an object or
      // array (so the last one, ending the reply, is always the whole value).
      const last = partials[index];
      const closes = /[}\]]\s*$/.test(chunk.delta);
      if (
        last === undefined ||
        text.length <= 2048 ||
        closes ||
        text.length - last.length >= Math.max(64, text.length / 10)
      ) {
        partials[index] = { length: text.length, value: parsePartial(text) };
      }
      const partial = partials[index]?.value;
      run.emit({
        type: 'solution-delta',
        requestId,
        index,
        delta: chunk.delta,
        ...(partial === undefined ? {} : { partial }),
      });
    }
  }
  return stream.response();
}

/** One `solution-delta` per option of a reply that came whole; its partial is the option itself. */
function reportWholeReplies(run: RunContext, requestId: string, response: ProviderResponse): void {
  response.reasoning?.forEach((parts, index) => {
    const delta = parts.map((part) => part.text).join('');
    if (delta !== '') run.emit({ type: 'reasoning-delta', requestId, index, delta });
  });
  response.options.forEach((option, index) => {
    const delta = optionText(option);
    if (delta === '') return;
    const partial = UnparsedOption.isInstance(option) ? parsePartial(delta) : shallow(option);
    run.emit({
      type: 'solution-delta',
      requestId,
      index,
      delta,
      ...(partial === undefined ? {} : { partial }),
    });
  });
}

/**
 * The text so far, parsed leniently; undefined while nothing parses yet, and when it nests more than
 * MAX_JSON_DEPTH levels (readers of the event would walk it; the pipeline repairs the reply).
 */
function parsePartial(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return shallow(parsePartialJson(text, Allow.ALL));
  } catch {
    return undefined;
  }
}

/** The value, or undefined when it nests more than MAX_JSON_DEPTH levels (checked without recursion). */
function shallow(value: unknown): unknown {
  return findJsonDepthViolation(value) === undefined ? value : undefined;
}

/** The request's messages on the `chat` span, when it records content (opted in). */
function recordRequest(span: Span, request: ProviderRequest): void {
  if (recordsContent(span)) {
    span.setAttribute('gen_ai.input.messages', contentJson(request.messages.map(chatPart)));
  }
}

/** Usage, finish reasons and (opted in) the options, on the `chat` span. */
function recordResponse(span: Span, response: ProviderResponse): void {
  recordSpanUsage(span, response.usage);
  if (!span.isRecording()) return;
  if (response.model !== undefined) span.setAttribute('gen_ai.response.model', response.model);
  if (response.finishReasons !== undefined) {
    span.setAttribute('gen_ai.response.finish_reasons', [...response.finishReasons]);
  }
  if (recordsContent(span)) {
    const replies = response.options.map((option) => ({
      role: 'assistant',
      parts: [
        {
          type: 'text',
          content: UnparsedOption.isInstance(option) ? option.rawText : contentJson(option),
        },
      ],
    }));
    span.setAttribute('gen_ai.output.messages', contentJson(replies));
  }
}

/** An error as events carry it: `{ code, message }`. */
export function callErrorOf(error: unknown): { code: string; message: string } {
  if (IdeactError.isInstance(error)) return error.toCallError();
  const message = error instanceof Error ? error.message : String(error);
  return { code: 'UNKNOWN_ERROR', message };
}

/** A chat message in the GenAI conventions' message shape (role + parts). */
function chatPart(message: ChatMessage): unknown {
  return { role: message.role, parts: [{ type: 'text', content: message.content }] };
}
