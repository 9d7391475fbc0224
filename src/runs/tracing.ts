import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  context,
  createContextKey,
  INVALID_SPAN_CONTEXT,
  isSpanContextValid,
  ProxyTracerProvider,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Span,
  type Tracer,
} from '@opentelemetry/api';
import { IdeactError } from '../errors/ideact-error';
import type { Usage } from '../llm/provider';

/**
 * How an agent traces its runs with OpenTelemetry (GenAI semantic conventions). Without an SDK
 * registered every span is a no-op; message content is recorded only with `recordContent: true`.
 */
export interface TraceOptions {
  /** Record prompts, solutions, Call params and outputs as span attributes (default false: they may hold personal data). */
  recordContent?: boolean;
  /** The tracer to use (default: `trace.getTracer('ideact', version)` of the global provider). */
  tracer?: Tracer;
}

/** What the spans of one run use; carried in the OpenTelemetry context so nested spans inherit it. */
interface TraceSettings {
  tracer?: Tracer;
  recordContent: boolean;
}

const SETTINGS = createContextKey('ideact.trace');
let packageVersion: string | undefined;

function version(): string {
  if (packageVersion === undefined) {
    try {
      const file = join(__dirname, '..', '..', 'package.json');
      packageVersion = (JSON.parse(readFileSync(file, 'utf8')) as { version?: string }).version;
    } catch {
      // Bundled without its package.json: the tracer simply has no version.
    }
    packageVersion ??= '';
  }
  return packageVersion;
}

function activeSettings(): TraceSettings | undefined {
  return context.active().getValue(SETTINGS) as TraceSettings | undefined;
}

/** Not cached: `trace.disable()` and a new registration must be picked up. */
function tracerOf(settings: TraceSettings | undefined): Tracer {
  return settings?.tracer ?? trace.getTracer('ideact', version() || undefined);
}

/** The OpenTelemetry `error.type` of an error: the IdeactError code, or the error's class name. */
export function errorType(error: unknown): string {
  if (IdeactError.isInstance(error)) return error.code;
  if (error instanceof Error) return error.constructor.name || error.name;
  return typeof error;
}

/** Marks `span` as failed with `error`: status ERROR, `error.type`, and the exception event. */
export function recordSpanError(span: Span, error: unknown): void {
  if (!span.isRecording()) return;
  span.setAttribute('error.type', errorType(error));
  span.setStatus({
    code: SpanStatusCode.ERROR,
    message: error instanceof Error ? error.message : String(error),
  });
  if (error instanceof Error) span.recordException(error);
}

/** Sets the GenAI usage attributes (input and output tokens) on a recording span. */
export function recordSpanUsage(span: Span, usage: Usage): void {
  if (!span.isRecording()) return;
  span.setAttribute('gen_ai.usage.input_tokens', usage.inputTokens);
  span.setAttribute('gen_ai.usage.output_tokens', usage.outputTokens);
  // The GenAI conventions' cache and reasoning counts (each included in the totals above).
  if (usage.cachedTokens > 0) {
    span.setAttribute('gen_ai.usage.cache_read.input_tokens', usage.cachedTokens);
  }
  if (usage.cacheWriteTokens !== undefined) {
    span.setAttribute('gen_ai.usage.cache_creation.input_tokens', usage.cacheWriteTokens);
  }
  if (usage.reasoningTokens !== undefined) {
    span.setAttribute('gen_ai.usage.reasoning.output_tokens', usage.reasoningTokens);
  }
}

/** Whether content attributes should be built for `span`: it records and the run opted in. */
export function recordsContent(span: Span): boolean {
  return span.isRecording() && activeSettings()?.recordContent === true;
}

/** JSON of a value for a content attribute; never throws (cycles and BigInts become a note). */
export function contentJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? 'null';
  } catch (error) {
    return `[not serializable: ${error instanceof Error ? error.message : String(error)}]`;
  }
}

/** The API's no-op provider: what the global provider delegates to while no SDK is registered. */
const NOOP_PROVIDER = new ProxyTracerProvider().getDelegate();
/** The span a body gets when nothing records: one shared object, nothing to end. */
const NOOP_SPAN: Span = trace.wrapSpanContext(INVALID_SPAN_CONTEXT);

/** True while no OpenTelemetry SDK is registered globally (the API's own no-op provider answers). */
function noSdkRegistered(): boolean {
  const provider = trace.getTracerProvider() as Partial<ProxyTracerProvider>;
  return typeof provider.getDelegate === 'function' && provider.getDelegate() === NOOP_PROVIDER;
}

/** True when a span would record nothing: no tracer of a run's own, no trace to continue, no SDK. */
function nothingRecords(parent: Context, settings: TraceSettings | undefined): boolean {
  return settings?.tracer === undefined && trace.getSpan(parent) === undefined && noSdkRegistered();
}

/**
 * True when a span opened here now would be dropped unseen ({@link withSpan} without `trace`
 * options would give its body the no-op span): a caller may skip building the span's attributes.
 * @internal
 */
export function tracingIsOff(): boolean {
  const parent = context.active();
  return nothingRecords(parent, parent.getValue(SETTINGS) as TraceSettings | undefined);
}

/**
 * Runs `body` inside an active span of the run's tracer (parented to the active span), ends the span
 * when `body` settles, and records a thrown error with `error.type`. `settings` replaces the inherited
 * trace options for this span and everything beneath it (an agent run passes its `trace` option).
 */
export function withSpan<T>(
  name: string,
  attributes: Attributes,
  body: (span: Span) => Promise<T>,
  options: { kind?: SpanKind; trace?: TraceOptions } = {},
): Promise<T> {
  let parent = context.active();
  let settings = parent.getValue(SETTINGS) as TraceSettings | undefined;
  if (options.trace === undefined && nothingRecords(parent, settings)) {
    // No SDK, no tracer of the run's own, no trace to continue: not even a no-op span is made
    // (issue 28: nothing allocated for a consumer that does not exist).
    return body(NOOP_SPAN);
  }
  if (options.trace !== undefined) {
    settings = {
      tracer: options.trace.tracer ?? settings?.tracer,
      recordContent: options.trace.recordContent ?? settings?.recordContent ?? false,
    };
    parent = parent.setValue(SETTINGS, settings);
  }
  const spanOptions = { kind: options.kind ?? SpanKind.INTERNAL, attributes };
  const span = tracerOf(settings).startSpan(name, spanOptions, parent);
  if (
    options.trace === undefined &&
    !span.isRecording() &&
    !isSpanContextValid(span.spanContext())
  ) {
    // Nothing records (no SDK registered), there is no trace to continue and no settings to pass
    // down: no context to enter, so tracing costs nothing measurable when it is off.
    return settle(span, body);
  }
  return context.with(trace.setSpan(parent, span), () => settle(span, body));
}

/** Runs `body` with `span`, records a thrown error on it and ends it when `body` settles. */
async function settle<T>(span: Span, body: (span: Span) => Promise<T>): Promise<T> {
  try {
    return await body(span);
  } catch (error) {
    recordSpanError(span, error);
    throw error;
  } finally {
    span.end();
  }
}

/** The GenAI provider name of an ideact provider name (`openai:gpt-4o` → `openai`). */
export function providerName(name: string | undefined): string {
  if (name === undefined || name === '') return 'unknown';
  const colon = name.indexOf(':');
  return colon === -1 ? name : name.slice(0, colon);
}
