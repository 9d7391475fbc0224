import { IdeactError } from '../errors/ideact-error';
import { isJsonObject } from '../dev/http-json';
import { ServeRequestError } from './serve-request-error';

export { isJsonObject } from '../dev/http-json';

/** Fetch-API helpers of the run handler: JSON answers, errors without stacks, bounded bodies. */

/** Headers every answer carries. */
const COMMON_HEADERS = { 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' };

/** `body` as JSON with `status`. */
export function jsonResponse(
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...COMMON_HEADERS, ...headers },
  });
}

/**
 * The answer for a thrown error: a {@link ServeRequestError} as it says, an ideact error as 400 with
 * its code and message when the client's input was at fault (fault `input`), anything else as a 500 that says nothing
 * about the server (`report` gets the error to log it). Never a stack trace.
 */
export function errorResponse(error: unknown, report: (error: unknown) => void): Response {
  if (error instanceof ServeRequestError) {
    return jsonResponse(
      error.status,
      {
        error: {
          code: error.code,
          message: error.message,
          ...(error.options.path === undefined ? {} : { path: error.options.path }),
        },
      },
      error.options.headers,
    );
  }
  if (IdeactError.isInstance(error) && error.fault === 'input') {
    return jsonResponse(400, { error: { code: error.code, message: error.message } });
  }
  report(error);
  return jsonResponse(500, {
    error: { code: 'INTERNAL_ERROR', message: 'The server failed to answer; it logged why.' },
  });
}

/**
 * The request's JSON object body, read up to `limit` bytes (413 past it, before the rest is read);
 * 415 when it is not sent as JSON, 400 when it is not a JSON object.
 */
export async function readJsonObject(
  request: Request,
  limit: number,
): Promise<Record<string, unknown>> {
  const type = (request.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/json') {
    throw new ServeRequestError(
      415,
      'UNSUPPORTED_MEDIA_TYPE',
      `Send the body as JSON with "Content-Type: application/json" (got "${type || 'none'}").`,
    );
  }
  const declared = Number(request.headers.get('content-length') ?? '0');
  if (declared > limit) throw bodyTooLarge(limit);
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (request.body !== null) {
    const reader = request.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limit) {
        await reader.cancel().catch(() => undefined);
        throw bodyTooLarge(limit);
      }
      chunks.push(value);
    }
  }
  let body: unknown;
  try {
    body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new ServeRequestError(400, 'INVALID_JSON', 'The request body is not valid JSON.');
  }
  if (!isJsonObject(body)) {
    throw new ServeRequestError(400, 'INVALID_REQUEST', 'The request body must be a JSON object.');
  }
  return body;
}

function bodyTooLarge(limit: number): ServeRequestError {
  return new ServeRequestError(
    413,
    'BODY_TOO_LARGE',
    `The request body is over ${limit} bytes (the handler's maxBodyBytes).`,
  );
}
