/**
 * A request the run handler refuses, turned into `{ error: { code, message, path? } }` with its
 * HTTP status (and headers such as `Retry-After`). It never leaves the handler: it only carries the
 * answer, so its message is written for the client and holds no stack or server detail.
 */
export class ServeRequestError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly options: { path?: string; headers?: Record<string, string> } = {},
  ) {
    super(message);
  }
}

/** 404 for a run that does not exist or belongs to another principal (the two look alike). */
export function runNotFound(runId: string): ServeRequestError {
  return new ServeRequestError(404, 'RUN_NOT_FOUND', `No run "${runId}".`);
}
