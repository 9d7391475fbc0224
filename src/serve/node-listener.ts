import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';

/**
 * Node's `http` for a Fetch-API handler (issue 32): `createServer(toNodeListener(handler))`. The
 * request becomes a `Request` (its body streamed, its signal aborted when the client goes away);
 * the `Response` is written as it comes (server-sent events flush event by event), and a client
 * that disconnects cancels the body — which, for the run handler, only stops reading.
 */
export function toNodeListener(
  handler: (request: Request) => Promise<Response>,
  options: { origin?: string } = {},
): (request: IncomingMessage, response: ServerResponse) => void {
  return (incoming, outgoing) => {
    const controller = new AbortController();
    outgoing.on('close', () => controller.abort());
    const origin = options.origin ?? `http://${incoming.headers.host ?? 'localhost'}`;
    const headers = new Headers();
    for (const [name, value] of Object.entries(incoming.headers)) {
      if (value === undefined) continue;
      for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
    }
    const method = incoming.method ?? 'GET';
    const hasBody = method !== 'GET' && method !== 'HEAD';
    const request = new Request(new URL(incoming.url ?? '/', origin), {
      method,
      headers,
      signal: controller.signal,
      ...(hasBody
        ? { body: Readable.toWeb(incoming) as ReadableStream<Uint8Array>, duplex: 'half' }
        : {}),
    } as RequestInit);
    handler(request)
      .then((response) => write(response, outgoing))
      .catch(() => {
        if (!outgoing.headersSent) {
          outgoing.writeHead(500, { 'content-type': 'application/json; charset=utf-8' });
          outgoing.end(
            '{"error":{"code":"INTERNAL_ERROR","message":"The server failed to answer."}}',
          );
        } else outgoing.destroy();
      });
  };
}

async function write(response: Response, outgoing: ServerResponse): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => (headers[name] = value));
  outgoing.writeHead(response.status, headers);
  if (response.body === null) {
    outgoing.end();
    return;
  }
  outgoing.flushHeaders();
  const reader = response.body.getReader();
  outgoing.on('close', () => void reader.cancel().catch(() => undefined));
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!outgoing.write(value)) {
        await new Promise<void>((resolve) => {
          const resume = (): void => {
            outgoing.off('drain', resume);
            outgoing.off('close', resume);
            resolve();
          };
          outgoing.on('drain', resume);
          outgoing.on('close', resume);
        });
      }
    }
    outgoing.end();
  } catch {
    outgoing.destroy();
  }
}
