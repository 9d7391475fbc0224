/**
 * `promise`, or a rejection as soon as `signal` aborts (with `reasonOf(signal)`, by default the
 * signal's reason), so a caller stops waiting for work that may go on. The listener is removed once
 * either settles; a promise that loses the race has its rejection handled.
 */
export function untilAborted<T>(
  promise: Promise<T>,
  signal: AbortSignal | undefined,
  reasonOf: (signal: AbortSignal) => unknown = (aborted) => aborted.reason,
): Promise<T> {
  if (signal === undefined) return promise;
  if (signal.aborted) {
    promise.catch(() => undefined);
    return Promise.reject(reasonOf(signal) as Error);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(reasonOf(signal) as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error as Error);
      },
    );
  });
}
