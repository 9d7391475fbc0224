import { createHash, timingSafeEqual } from 'node:crypto';
import { ServeRequestError } from './serve-request-error';

/**
 * Who a request comes from (issue 32 item 4): a bearer token, or the app's own `authorize(request)`
 * hook, gives a principal; every run belongs to the principal that started it.
 */

/** Whom a request acts for: runs are owned by, listed for and visible to this id only. */
export interface Principal {
  /** Stable id of the user, tenant or API key (kept with each run it starts). */
  id: string;
}

/**
 * The app's check of a request: the principal it acts for, or undefined to refuse it (401). It may
 * read cookies, a session, a JWT… The handler never looks at credentials itself beyond this.
 */
export type AuthorizeRequest = (
  request: Request,
) => Principal | undefined | Promise<Principal | undefined>;

/** The principal of requests to a handler without `token` or `authorize` (say so in production). */
export const ANONYMOUS: Principal = { id: 'anonymous' };

/**
 * The authorize function a handler uses: the hook as given; for a `token`, a constant-time check of
 * `Authorization: Bearer <token>` (principal `token`); neither: everyone is {@link ANONYMOUS}.
 */
export function authorizer(options: {
  token?: string;
  authorize?: AuthorizeRequest;
}): AuthorizeRequest {
  if (options.authorize !== undefined) return options.authorize;
  const token = options.token;
  if (token === undefined) return () => ANONYMOUS;
  const expected = digest(token);
  return (request) => {
    const header = request.headers.get('authorization') ?? '';
    const match = /^Bearer\s+(.+)$/i.exec(header.trim());
    if (match === null) return undefined;
    return timingSafeEqual(digest(match[1] as string), expected) ? { id: 'token' } : undefined;
  };
}

/** The request's principal, or a 401 (with `WWW-Authenticate: Bearer`). */
export async function principalOf(
  request: Request,
  authorize: AuthorizeRequest,
): Promise<Principal> {
  const principal = await authorize(request);
  if (principal === undefined || typeof principal.id !== 'string' || principal.id === '') {
    throw new ServeRequestError(
      401,
      'UNAUTHORIZED',
      'Authenticate first: send "Authorization: Bearer <token>" (or what the server\'s authorize hook expects).',
      { headers: { 'www-authenticate': 'Bearer' } },
    );
  }
  return principal;
}

/** Fixed-length digests, so comparing them takes the same time whatever the token's length. */
function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}
