import { isAborted } from './is-aborted';

/**
 * Callbacks waiting on each signal's abort, behind ONE listener per signal: a run's Calls each wait
 * on the run's signal, and adding and removing an event listener per Call cost more than the Call
 * (issue 28). A Set add/delete is all a wait costs.
 */
const waiting = new WeakMap<AbortSignal, Set<() => void>>();

/**
 * Calls `onAbortCallback` once when `signal` aborts (at once if it has); returns the function that
 * cancels it. Callbacks run in the order they were added.
 */
export function onAbort(signal: AbortSignal, onAbortCallback: () => void): () => void {
  if (isAborted(signal)) {
    onAbortCallback();
    return () => undefined;
  }
  let callbacks = waiting.get(signal);
  if (callbacks === undefined) {
    const created = new Set<() => void>();
    callbacks = created;
    waiting.set(signal, created);
    signal.addEventListener(
      'abort',
      () => {
        waiting.delete(signal);
        for (const callback of created) callback();
        created.clear();
      },
      { once: true },
    );
  }
  const registered = callbacks;
  registered.add(onAbortCallback);
  return () => {
    registered.delete(onAbortCallback);
  };
}

/**
 * `promise`, or a rejection as soon as `signal` aborts (with `reasonOf(signal)`, by default the
 * signal's reason), so a caller stops waiting for work that may go on. The wait is forgotten once
 * either settles; a promise that loses the race has its rejection handled.
 */
export function untilAborted<T>(
  promise: Promise<T>,
  signal: AbortSignal | undefined,
  reasonOf: (signal: AbortSignal) => unknown = (aborted) => aborted.reason,
): Promise<T> {
  if (signal === undefined) return promise;
  if (isAborted(signal)) {
    promise.catch(() => undefined);
    return Promise.reject(reasonOf(signal) as Error);
  }
  return new Promise<T>((resolve, reject) => {
    const cancel = onAbort(signal, () => reject(reasonOf(signal) as Error));
    promise.then(
      (value) => {
        cancel();
        resolve(value);
      },
      (error: unknown) => {
        cancel();
        reject(error as Error);
      },
    );
  });
}
