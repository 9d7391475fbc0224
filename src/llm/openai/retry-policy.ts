/** How the OpenAI provider waits between attempts; every field has a default. @internal */
export interface RetryPolicy {
  /** Retries after the first attempt (0 = no retries). */
  maxRetries: number;
  /** Base of the exponential backoff in milliseconds. */
  baseDelayMs: number;
  /** Upper bound of one backoff delay in milliseconds. */
  maxDelayMs: number;
}

/** The longest `Retry-After` ideact honours; longer requests fall back to the backoff (like the openai SDK). */
const MAX_RETRY_AFTER_MS = 60_000;

/** HTTP statuses worth retrying: request timeout, conflict, rate limit and server errors. */
export function isRetryableStatus(status: number | undefined): boolean {
  if (status === undefined) return false;
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/**
 * Reads the server's requested delay in milliseconds from `retry-after-ms`, or `Retry-After` as
 * seconds or an HTTP date. Undefined when absent, unparseable, negative or over a minute.
 */
export function retryAfterMs(
  headers: Headers | undefined,
  now: number = Date.now(),
): number | undefined {
  if (headers === undefined) return undefined;
  const candidates: number[] = [];
  const milliseconds = headers.get('retry-after-ms');
  if (milliseconds !== null && milliseconds.trim() !== '') candidates.push(Number(milliseconds));
  const retryAfter = headers.get('retry-after');
  if (retryAfter !== null && retryAfter.trim() !== '') {
    const seconds = Number(retryAfter);
    candidates.push(Number.isFinite(seconds) ? seconds * 1000 : Date.parse(retryAfter) - now);
  }
  const delay = candidates.find((value) => Number.isFinite(value));
  if (delay === undefined) return undefined;
  const clamped = Math.max(0, delay);
  return clamped <= MAX_RETRY_AFTER_MS ? clamped : undefined;
}

/** Jittered exponential backoff for retry number `retry` (1-based): base·2^(retry−1)·[0.5,1), capped. */
export function backoffMs(
  retry: number,
  policy: RetryPolicy,
  random: () => number = Math.random,
): number {
  const exponential = policy.baseDelayMs * 2 ** Math.max(0, retry - 1);
  return Math.min(policy.maxDelayMs, exponential * (0.5 + random() / 2));
}

/** Waits `milliseconds`, rejecting with the signal's reason as soon as the signal aborts. */
export function sleep(milliseconds: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, milliseconds);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
