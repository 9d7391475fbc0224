import { DatabaseConnectionError } from '../errors/database-connection.error';
import { isConnectionError } from '../store/postgres-connection';

/** How a step retries while its database is away. @internal */
export interface DatabaseRetryOptions {
  /** Attempts in all, the first included (default 8). */
  attempts?: number;
  /** The wait before the first retry; each next one doubles it (default 1000 ms: 1, 2, 4, 8… s). */
  firstDelayMs?: number;
  /** Any of these aborted: no further attempt, the last error is thrown (a cancel, a stopping worker). */
  signals?: ReadonlyArray<AbortSignal | undefined>;
}

/**
 * Runs `body`, again after a backoff while it fails because the database could not be reached. Done
 * inside the step body rather than with DBOS's step retries, which read the workflow's status before
 * every attempt, the first one included: one query per model turn that a healthy database never needs.
 * @internal
 */
export async function retryWhileDatabaseDown<T>(
  body: () => Promise<T>,
  options: DatabaseRetryOptions = {},
): Promise<T> {
  const attempts = options.attempts ?? 8;
  const signals = (options.signals ?? []).filter(
    (signal): signal is AbortSignal => signal !== undefined,
  );
  let delayMs = options.firstDelayMs ?? 1000;
  for (let attempt = 1; ; attempt++) {
    try {
      return await body();
    } catch (error) {
      const stopped = signals.some((signal) => signal.aborted);
      if (!isDatabaseDown(error) || attempt >= attempts || stopped) throw error;
      if (!(await wait(delayMs, signals))) throw error;
      delayMs *= 2;
    }
  }
}

/** A step failed because the database could not be reached (the store's typed error, or pg's own). */
export function isDatabaseDown(error: unknown): boolean {
  return DatabaseConnectionError.isInstance(error) || isConnectionError(error);
}

/** Waits `ms`; false as soon as one of `signals` aborts. */
function wait(ms: number, signals: readonly AbortSignal[]): Promise<boolean> {
  return new Promise((resolve) => {
    const finish = (waited: boolean): void => {
      clearTimeout(timer);
      for (const signal of signals) signal.removeEventListener('abort', onAbort);
      resolve(waited);
    };
    const onAbort = (): void => finish(false);
    const timer = setTimeout(() => finish(true), ms);
    for (const signal of signals) signal.addEventListener('abort', onAbort, { once: true });
  });
}
