import { RequestAbortedError } from '../../errors/request-aborted.error';
import { untilAborted } from '../../internal/until-aborted';
import {
  isApiCallError,
  retryAfterMs,
  translateAiSdkError,
  type TranslateContext,
} from './ai-sdk-errors';

/** How {@link withRetries} retries one model call. @internal */
export interface RetrySettings {
  /** Retries after the first attempt (default 2). */
  maxRetries?: number;
  /** A server's requested wait above this (default 60 000 ms) ends the retries at once. */
  maxRetryDelayMs?: number;
  /** Aborts the call and any wait between attempts. */
  signal?: AbortSignal;
  /** What the final error names besides the attempts. */
  context: Omit<TranslateContext, 'attempts'>;
}

/**
 * Runs one model call with bounded retries, as the AI SDK's own `generateText` would (the provider
 * packages do not retry): a retryable `APICallError` (408, 409, 429, 5xx, no connection) waits what
 * the server asks (`retry-after-ms`, `Retry-After`), else 0.5 s doubling up to 8 s, and tries again.
 * The final error becomes ideact's typed error; an abort rejects at once with RequestAbortedError,
 * also during a wait. @internal
 */
export async function withRetries<T>(
  call: () => PromiseLike<T>,
  settings: RetrySettings,
): Promise<T> {
  const { signal } = settings;
  const maxRetries = Math.max(0, Math.floor(settings.maxRetries ?? 2));
  const maxDelay = settings.maxRetryDelayMs ?? 60_000;
  for (let attempt = 1; ; attempt++) {
    try {
      return await untilAborted(Promise.resolve(call()), signal, abortedError);
    } catch (error) {
      if (signal?.aborted) throw new RequestAbortedError({ cause: signal.reason });
      const retryable = isApiCallError(error) && error.isRetryable;
      const wait = isApiCallError(error)
        ? (retryAfterMs(error.responseHeaders) ?? backoff(attempt))
        : backoff(attempt);
      if (!retryable || attempt > maxRetries || wait > maxDelay) {
        throw translateAiSdkError(error, { ...settings.context, attempts: attempt });
      }
      await sleep(wait, signal);
    }
  }
}

/** The RequestAbortedError of an aborted signal. @internal */
export function abortedError(signal: AbortSignal): RequestAbortedError {
  return new RequestAbortedError({ cause: signal.reason });
}

/** 0.5 s doubling up to 8 s. */
function backoff(attempt: number): number {
  return Math.min(8_000, 500 * 2 ** (attempt - 1));
}

/** Waits `ms`, or rejects with RequestAbortedError as soon as `signal` aborts (the timer cleared). */
function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortedError(signal));
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(abortedError(signal as AbortSignal));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
