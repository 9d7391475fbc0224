/**
 * An API request the playground refuses, turned into an HTTP answer `{ error: { code, message, path? } }`
 * by the server (not an ideact error: it never leaves the server, it only carries the status).
 */
export class PlaygroundRequestError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly path?: string,
  ) {
    super(message);
  }
}
