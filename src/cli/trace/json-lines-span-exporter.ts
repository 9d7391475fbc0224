import { renameSync, writeFileSync } from 'node:fs';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-node';

type ExportResultCallback = Parameters<SpanExporter['export']>[1];
type HrTime = ReadableSpan['startTime'];

/** OpenTelemetry's `SpanKind` values by number, as names. */
const SPAN_KINDS = ['INTERNAL', 'SERVER', 'CLIENT', 'PRODUCER', 'CONSUMER'];
/** OpenTelemetry's `SpanStatusCode` values by number, as names. */
const STATUS_CODES = ['UNSET', 'OK', 'ERROR'];

/** One finished span as `ideact run --trace` writes it: one JSON object per line (docs/cli.md). */
export interface SpanLine {
  name: string;
  traceId: string;
  spanId: string;
  /** The parent span's id; null for the trace's root span. */
  parentSpanId: string | null;
  kind: string;
  /** Nanoseconds since the Unix epoch, as a decimal string (too large for a JSON number). */
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  durationMs: number;
  attributes: Record<string, unknown>;
  status: { code: string; message?: string };
  events: Array<{ name: string; timeUnixNano: string; attributes: Record<string, unknown> }>;
}

/**
 * A SpanExporter that keeps each finished span as one JSON line and writes them all to `file` when
 * the tracer provider shuts down: to a temporary file renamed over `file`, so the file is complete
 * or absent, never half written. `writeNow()` is the synchronous form for a process that must exit.
 */
export class JsonLinesSpanExporter implements SpanExporter {
  private readonly file: string;
  private readonly lines: string[] = [];
  private written = false;

  constructor(file: string) {
    this.file = file;
  }

  /** Keeps the spans' lines (in the order they ended). */
  export(spans: ReadableSpan[], resultCallback: ExportResultCallback): void {
    for (const span of spans) this.lines.push(JSON.stringify(spanLine(span)));
    resultCallback({ code: 0 }); // ExportResultCode.SUCCESS
  }

  /** Writes the file (once). */
  shutdown(): Promise<void> {
    this.writeNow();
    return Promise.resolve();
  }

  /** Nothing is buffered beyond the lines kept for the file. */
  forceFlush(): Promise<void> {
    return Promise.resolve();
  }

  /** Writes the spans ended so far to the file, atomically; later calls do nothing. */
  writeNow(): void {
    if (this.written) return;
    this.written = true;
    const temporary = `${this.file}.${process.pid}.tmp`;
    writeFileSync(temporary, this.lines.map((line) => `${line}\n`).join(''));
    renameSync(temporary, this.file);
  }
}

/** The JSON line of one span. */
export function spanLine(span: ReadableSpan): SpanLine {
  const context = span.spanContext();
  return {
    name: span.name,
    traceId: context.traceId,
    spanId: context.spanId,
    parentSpanId: span.parentSpanContext?.spanId ?? null,
    kind: SPAN_KINDS[span.kind] ?? String(span.kind),
    startTimeUnixNano: unixNano(span.startTime),
    endTimeUnixNano: unixNano(span.endTime),
    durationMs: span.duration[0] * 1000 + span.duration[1] / 1e6,
    attributes: { ...span.attributes },
    status: {
      code: STATUS_CODES[span.status.code] ?? String(span.status.code),
      ...(span.status.message === undefined ? {} : { message: span.status.message }),
    },
    events: span.events.map((event) => ({
      name: event.name,
      timeUnixNano: unixNano(event.time),
      attributes: { ...(event.attributes ?? {}) },
    })),
  };
}

/** `[seconds, nanoseconds]` as one decimal string of nanoseconds. */
function unixNano([secondsPart, nanoseconds]: HrTime): string {
  return (BigInt(secondsPart) * 1_000_000_000n + BigInt(nanoseconds)).toString();
}
