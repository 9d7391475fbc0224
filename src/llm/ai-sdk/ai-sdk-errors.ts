import { ProviderApiError } from '../../errors/provider-api.error';
import { ProviderAuthError } from '../../errors/provider-auth.error';
import { ProviderBadRequestError } from '../../errors/provider-bad-request.error';
import { ProviderRateLimitError } from '../../errors/provider-rate-limit.error';
import { ProviderUnreachableError } from '../../errors/provider-unreachable.error';

/** The AI SDK's `APICallError`, recognised by its global marker (any copy of `@ai-sdk/provider`). @internal */
export interface AiSdkApiCallError {
  message: string;
  url: string;
  statusCode?: number;
  responseHeaders?: Record<string, string>;
  responseBody?: string;
  isRetryable: boolean;
  data?: unknown;
}

const API_CALL_ERROR = Symbol.for('vercel.ai.error.AI_APICallError');

/** True for an `APICallError` of any copy (or realm) of `@ai-sdk/provider`. @internal */
export function isApiCallError(error: unknown): error is AiSdkApiCallError {
  return (
    typeof error === 'object' &&
    error !== null &&
    (error as Record<symbol, unknown>)[API_CALL_ERROR] === true
  );
}

/** The wait a response asks for: `retry-after-ms`, else `Retry-After` (seconds or an HTTP date). @internal */
export function retryAfterMs(
  headers: Record<string, string> | undefined,
  now: number = Date.now(),
): number | undefined {
  if (headers === undefined) return undefined;
  const lower = Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]),
  );
  const milliseconds = Number.parseFloat(lower['retry-after-ms'] ?? '');
  if (Number.isFinite(milliseconds) && milliseconds >= 0) return Math.round(milliseconds);
  const retryAfter = lower['retry-after'];
  if (retryAfter === undefined) return undefined;
  const seconds = Number.parseFloat(retryAfter);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.round(seconds * 1000);
  const date = Date.parse(retryAfter);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** What a translated error names besides the AI SDK error itself. @internal */
export interface TranslateContext {
  /** HTTP attempts made (1 + retries). */
  attempts: number;
  /** The schema the request carried, named in bad-request errors. */
  schemaName?: string;
  /** The variable the API key comes from, named in auth errors. */
  keyVariable?: string;
}

/**
 * Turns an AI SDK `APICallError` into ideact's typed provider error: 429 → ProviderRateLimitError
 * (with the server's retry-after), 401/403 → ProviderAuthError, 400/422 → ProviderBadRequestError
 * (the vendor's explanation, naming the schema), no response → ProviderUnreachableError, others →
 * ProviderApiError. Any other error passes through unchanged. @internal
 */
export function translateAiSdkError(error: unknown, context: TranslateContext): unknown {
  if (!isApiCallError(error)) return error;
  const { attempts } = context;
  const url = error.url;
  const detail = vendorMessage(error);
  const status = error.statusCode;
  if (status === undefined) {
    return new ProviderUnreachableError({ url, attempts, detail, cause: error });
  }
  if (status === 429) {
    const wait = retryAfterMs(error.responseHeaders);
    return new ProviderRateLimitError({
      url,
      attempts,
      detail,
      cause: error,
      ...(wait === undefined ? {} : { retryAfterMs: wait }),
    });
  }
  if (status === 401 || status === 403) {
    return new ProviderAuthError({
      url,
      status,
      attempts,
      detail,
      cause: error,
      ...(context.keyVariable === undefined ? {} : { keyVariable: context.keyVariable }),
    });
  }
  if (status === 400 || status === 422) {
    return new ProviderBadRequestError({
      url,
      status,
      attempts,
      detail,
      cause: error,
      ...(context.schemaName === undefined ? {} : { schemaName: context.schemaName }),
    });
  }
  return new ProviderApiError({ url, status, attempts, detail, cause: error });
}

/** The vendor's own explanation: the package's message (parsed from the error body), else the body. */
function vendorMessage(error: AiSdkApiCallError): string {
  const message = error.message.trim();
  if (message !== '' && message !== 'Bad Request') return message;
  return (error.responseBody ?? message).slice(0, 2000);
}
