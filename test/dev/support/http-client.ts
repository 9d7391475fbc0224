import { request as httpRequest } from 'node:http';

/** Raw HTTP for the server tests: any method, headers (also Host and Origin) and body. */

/** An answer: status, headers and body text (JSON parsed when it is JSON). */
export interface HttpAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read API answers freely
}

/** Sends one request to `baseUrl` + `path` and reads the whole answer. */
export function http(
  baseUrl: string,
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: unknown } = {},
): Promise<HttpAnswer> {
  const url = new URL(path, baseUrl);
  const body =
    options.body === undefined
      ? undefined
      : typeof options.body === 'string'
        ? options.body
        : JSON.stringify(options.body);
  const headers: Record<string, string> = {
    ...(body !== undefined && typeof options.body !== 'string'
      ? { 'content-type': 'application/json' }
      : {}),
    ...options.headers,
  };
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      {
        hostname: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        method: options.method ?? 'GET',
        headers,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json: unknown;
          try {
            json = JSON.parse(text);
          } catch {
            json = undefined;
          }
          resolve({ status: response.statusCode ?? 0, headers: response.headers, text, json });
        });
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    if (body !== undefined) request.write(body);
    request.end();
  });
}

/** One server-sent event. */
export interface SseMessage {
  event: string;
  data: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read events freely
}

/** Reads an event stream to its end (the server closes it after `event: end`). */
export function readEventStream(baseUrl: string, path: string): Promise<SseMessage[]> {
  return http(baseUrl, path, { headers: { accept: 'text/event-stream' } }).then((answer) => {
    if (answer.status !== 200)
      throw new Error(`event stream ${path}: ${answer.status} ${answer.text}`);
    return answer.text
      .split('\n\n')
      .filter((block) => block.trim() !== '' && !block.startsWith(':'))
      .map((block) => {
        const lines = block.split('\n');
        const event = lines.find((line) => line.startsWith('event: '))?.slice(7) ?? 'message';
        const data = lines
          .filter((line) => line.startsWith('data: '))
          .map((line) => line.slice(6))
          .join('\n');
        return { event, data: JSON.parse(data) };
      });
  });
}

/** Polls `check` until it returns a value (not undefined), or fails after `timeoutMs`. */
export async function waitFor<T>(
  check: () => Promise<T | undefined>,
  timeoutMs = 5000,
): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error('waitFor: timed out');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
