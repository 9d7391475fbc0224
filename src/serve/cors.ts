import { ServeRequestError } from './serve-request-error';

/**
 * Cross-origin access by allow-list (issue 32 item 4): a browser page from an allowed origin may
 * call the handler (its preflight is answered, answers carry `Access-Control-Allow-Origin` with that
 * origin); a request from any other origin is refused (403) before it does anything. Requests
 * without `Origin` (servers, curl) and same-origin ones pass.
 */

/** Request headers a page may send. */
const ALLOWED_HEADERS = 'authorization, content-type, last-event-id';

/** The CORS headers of an answer to `request`, or a 403 for an origin outside `allowed`. */
export function corsHeaders(request: Request, allowed: readonly string[]): Record<string, string> {
  const origin = request.headers.get('origin');
  if (origin === null) return {};
  if (origin === new URL(request.url).origin) return {};
  if (!allowed.includes(origin) && !allowed.includes('*')) {
    throw new ServeRequestError(
      403,
      'FORBIDDEN_ORIGIN',
      `Origin "${origin}" is not allowed: add it to the handler's cors.origins (ideact serve --cors-origin).`,
    );
  }
  return {
    'access-control-allow-origin': allowed.includes('*') ? '*' : origin,
    'access-control-expose-headers': 'x-vercel-ai-ui-message-stream, retry-after',
    vary: 'Origin',
  };
}

/** The answer to a preflight (`OPTIONS`) from an allowed origin. */
export function preflightResponse(headers: Record<string, string>): Response {
  return new Response(null, {
    status: 204,
    headers: {
      ...headers,
      'access-control-allow-methods': 'GET, POST, OPTIONS',
      'access-control-allow-headers': ALLOWED_HEADERS,
      'access-control-max-age': '600',
    },
  });
}
