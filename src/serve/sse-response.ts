/**
 * A server-sent events answer as a Fetch `Response` (issue 32): `open` gets a writer and returns
 * what to do when the client goes away (a disconnect only stops reading: it never cancels a run). A
 * comment line every 15 s keeps proxies from closing a quiet stream.
 */

/** Writes one server-sent event, a raw frame, or ends the stream. */
export interface SseWriter {
  /** One event: `data` as JSON on one line, with an `id:` line when given. */
  send(data: unknown, id?: number): void;
  /** A frame exactly as written (e.g. `data: [DONE]\n\n`), as text or already encoded. */
  raw(frame: string | Uint8Array): void;
  /** Ends the stream (the client sees it close). */
  close(): void;
}

const frames = new WeakMap<object, Uint8Array>();
const frameEncoder = new TextEncoder();

/**
 * The encoded frame of a journaled event (`id:` and `data:` lines), made once per event however many
 * clients it goes to.
 */
export function eventFrame(stored: { seq: number; event: unknown }): Uint8Array {
  let frame = frames.get(stored);
  if (frame === undefined) {
    frame = frameEncoder.encode(`id: ${stored.seq}\ndata: ${JSON.stringify(stored.event)}\n\n`);
    frames.set(stored, frame);
  }
  return frame;
}

/** Heartbeat interval of open streams. */
const HEARTBEAT_MS = 15_000;

/** The headers of an event stream (before the handler's own, e.g. CORS). */
export const SSE_HEADERS: Record<string, string> = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-store',
  connection: 'keep-alive',
  'x-accel-buffering': 'no',
  'x-content-type-options': 'nosniff',
};

/**
 * The streamed answer: `open(writer)` starts sending and resolves to the function to call when the
 * client disconnects (or the stream is closed).
 */
export function sseResponse(
  open: (writer: SseWriter) => Promise<() => void> | (() => void),
  headers: Record<string, string> = {},
): Response {
  const encoder = new TextEncoder();
  let stop: (() => void) | undefined;
  let closed = false;
  let heartbeat: NodeJS.Timeout | undefined;
  const finish = (): void => {
    if (closed) return;
    closed = true;
    clearInterval(heartbeat);
    stop?.();
  };
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      const writer: SseWriter = {
        send(data, id) {
          if (closed) return;
          const prefix = id === undefined ? '' : `id: ${id}\n`;
          controller.enqueue(encoder.encode(`${prefix}data: ${JSON.stringify(data)}\n\n`));
        },
        raw(frame) {
          if (!closed)
            controller.enqueue(typeof frame === 'string' ? encoder.encode(frame) : frame);
        },
        close() {
          if (closed) return;
          finish();
          controller.close();
        },
      };
      heartbeat = setInterval(() => writer.raw(': ping\n\n'), HEARTBEAT_MS);
      heartbeat.unref();
      try {
        const stopper = await open(writer);
        if (closed) stopper();
        else stop = stopper;
      } catch (error) {
        finish();
        controller.error(error);
      }
    },
    cancel() {
      finish();
    },
  });
  return new Response(body, { status: 200, headers: { ...SSE_HEADERS, ...headers } });
}
