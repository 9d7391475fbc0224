/**
 * A one-reader async queue: `push` never blocks (events are small and a run must not wait for a slow
 * reader), the iterator yields in order and ends after `end()`, or throws the error given to `fail()`.
 * Leaving the loop early detaches the reader; it does not stop the producer.
 */
export class EventChannel<T> implements AsyncIterable<T> {
  private readonly queue: T[] = [];
  private waiting?: (result: IteratorResult<T, undefined>) => void;
  private failWaiting?: (error: unknown) => void;
  private closed = false;
  private failure?: { error: unknown };
  private detached = false;

  /** Queues one item (dropped once the reader left). */
  push(item: T): void {
    if (this.closed || this.detached) return;
    const resolve = this.waiting;
    if (resolve !== undefined) {
      this.waiting = undefined;
      this.failWaiting = undefined;
      resolve({ done: false, value: item });
    } else this.queue.push(item);
  }

  /** Ends the iteration after the queued items. */
  end(): void {
    if (this.closed) return;
    this.closed = true;
    const resolve = this.waiting;
    this.waiting = undefined;
    this.failWaiting = undefined;
    resolve?.({ done: true, value: undefined });
  }

  /** Ends the iteration with `error`, thrown after the queued items. */
  fail(error: unknown): void {
    if (this.closed) return;
    this.failure = { error };
    this.closed = true;
    const reject = this.failWaiting;
    this.waiting = undefined;
    this.failWaiting = undefined;
    reject?.(error);
  }

  /** The items in order; one reader. */
  [Symbol.asyncIterator](): AsyncIterator<T, undefined> {
    return {
      next: () => {
        if (this.queue.length > 0) {
          return Promise.resolve({ done: false, value: this.queue.shift() as T });
        }
        if (this.closed) {
          if (this.failure !== undefined) {
            const { error } = this.failure;
            this.failure = undefined;
            return Promise.reject(error);
          }
          return Promise.resolve({ done: true, value: undefined });
        }
        return new Promise<IteratorResult<T, undefined>>((resolve, reject) => {
          this.waiting = resolve;
          this.failWaiting = reject;
        });
      },
      return: () => {
        this.detached = true;
        this.queue.length = 0;
        return Promise.resolve({ done: true, value: undefined });
      },
    };
  }
}
