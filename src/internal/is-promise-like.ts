/**
 * True for a promise or any thenable (a transformer's, a handler's, a custom scorer's result): hot
 * paths await only what is one, since each `await` of a plain value still costs a turn of the queue.
 * @internal
 */
export function isPromiseLike<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as { then?: unknown } | null | undefined)?.then === 'function';
}
