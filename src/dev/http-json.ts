import type { IncomingMessage, ServerResponse } from 'node:http';
import { PlaygroundRequestError } from './playground-request-error';

/** Small JSON helpers of the playground server: answers and request bodies (at most 1 MB). */

/** The largest request body the playground reads. */
export const MAX_BODY_BYTES = 1024 * 1024;

/** Sends `body` as JSON with `status`. */
export function sendJson(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
  });
  response.end(text);
}

/** Sends `{ error: { code, message, path? } }` (plus extra fields such as `issues`). */
export function sendError(
  response: ServerResponse,
  status: number,
  error: { code: string; message: string; path?: string; [key: string]: unknown },
): void {
  sendJson(response, status, { error });
}

/** The request's JSON body; a 400 / 413 {@link PlaygroundRequestError} when it is not JSON or too big. */
export async function readJsonBody(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) {
      throw new PlaygroundRequestError(
        413,
        'BODY_TOO_LARGE',
        `The request body is over ${MAX_BODY_BYTES} bytes.`,
      );
    }
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new PlaygroundRequestError(
      400,
      'INVALID_JSON',
      `The request body is not JSON (${error instanceof Error ? error.message : String(error)}).`,
    );
  }
}

/** True for a plain JSON object (not an array, not null). */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
