/**
 * Runs async tasks with at most `limit` in flight at once; the rest wait in FIFO order. Hand-written
 * (a dozen lines) because no limiter package is installed; one limiter per batch so nested batches
 * (modules running their own calls) can never deadlock on a shared pool.
 */
export interface Limiter {
  /** Runs `task` when a slot is free; resolves/rejects with the task's result. */
  run<T>(task: () => Promise<T>): Promise<T>;
  /** Tasks currently running (for tests and diagnostics). */
  readonly active: number;
}

/** Creates a {@link Limiter}; `limit` below 1 or not finite is treated as 1 / unlimited respectively. */
export function createLimiter(limit: number): Limiter {
  const max = Number.isFinite(limit) ? Math.max(1, Math.floor(limit)) : Number.POSITIVE_INFINITY;
  const waiting: Array<() => void> = [];
  let active = 0;

  const release = (): void => {
    active -= 1;
    const next = waiting.shift();
    if (next) next();
  };

  /** Takes a slot and starts `task`; a task that throws gives a rejected promise. */
  const start = <T>(task: () => Promise<T>): Promise<T> => {
    active += 1;
    try {
      return task();
    } catch (error) {
      return Promise.reject(error);
    }
  };

  return {
    get active() {
      return active;
    },
    run<T>(task: () => Promise<T>): Promise<T> {
      if (active < max) {
        // A free slot (the common case): the task's own promise, released when it settles; no
        // wrapping promise per task (issue 28).
        return start(task).then(
          (value) => {
            release();
            return value;
          },
          (error: unknown) => {
            release();
            throw error;
          },
        );
      }
      return new Promise<T>((resolve, reject) => {
        waiting.push(() => {
          start(task).then(resolve, reject).finally(release);
        });
      });
    },
  };
}
