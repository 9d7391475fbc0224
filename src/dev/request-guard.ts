import type { IncomingMessage } from 'node:http';
import { PlaygroundRequestError } from './playground-request-error';

/**
 * The playground's defence against DNS rebinding and cross-site requests (issue 20, item 5): a
 * request must name this server in `Host` (a loopback name or the configured host, with its port),
 * an `Origin`, when sent, must be this server's own origin, and a POST must carry JSON (a plain HTML
 * form cannot send `application/json`, so no page elsewhere can post to the playground).
 */

/** The `host:port` values this server answers to. */
export function allowedHosts(host: string, port: number): Set<string> {
  const names = new Set(['127.0.0.1', 'localhost', '[::1]']);
  names.add(host.includes(':') && !host.startsWith('[') ? `[${host}]` : host);
  return new Set([...names].map((name) => `${name}:${port}`.toLowerCase()));
}

/** Throws a 403 / 415 {@link PlaygroundRequestError} when the request is not from this server's own pages. */
export function guardRequest(request: IncomingMessage, hosts: ReadonlySet<string>): void {
  const host = (request.headers.host ?? '').toLowerCase();
  if (!hosts.has(host)) {
    throw new PlaygroundRequestError(
      403,
      'FORBIDDEN_HOST',
      `Host "${request.headers.host ?? ''}" is not this playground (it answers to ${[...hosts].join(', ')}); open the URL \`ideact dev\` printed.`,
    );
  }
  const origin = request.headers.origin;
  if (origin !== undefined && !hosts.has(originHost(origin))) {
    throw new PlaygroundRequestError(
      403,
      'FORBIDDEN_ORIGIN',
      `Origin "${origin}" is not this playground's own origin: the playground only answers its own pages.`,
    );
  }
  if (request.method === 'POST') {
    const type = (request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
    if (type !== 'application/json') {
      throw new PlaygroundRequestError(
        415,
        'UNSUPPORTED_MEDIA_TYPE',
        `A POST must send JSON with "Content-Type: application/json" (got "${request.headers['content-type'] ?? 'none'}").`,
      );
    }
  }
}

/** `host:port` of an `http://` origin; '' for anything else (`null`, https, other schemes). */
function originHost(origin: string): string {
  try {
    const url = new URL(origin);
    // Exactly `http://host:port` as browsers send it: no user, path, query or trailing slash.
    if (url.protocol !== 'http:' || url.origin !== origin.toLowerCase()) return '';
    return url.host.toLowerCase();
  } catch {
    return '';
  }
}
