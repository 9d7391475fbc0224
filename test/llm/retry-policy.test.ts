import { backoffMs, isRetryableStatus, retryAfterMs } from '../../src/llm/openai/retry-policy';

describe('retry policy (bounded retries with backoff, honouring Retry-After)', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');

  it('reads retry-after-ms, Retry-After seconds and Retry-After HTTP dates', () => {
    expect(retryAfterMs(new Headers({ 'retry-after-ms': '250' }), now)).toBe(250);
    expect(retryAfterMs(new Headers({ 'retry-after': '1.5' }), now)).toBe(1500);
    expect(retryAfterMs(new Headers({ 'retry-after': 'Thu, 01 Jan 2026 00:00:10 GMT' }), now)).toBe(
      10_000,
    );
    expect(retryAfterMs(new Headers({ 'retry-after': 'Wed, 31 Dec 2025 23:59:00 GMT' }), now)).toBe(
      0,
    );
  });

  it('ignores absent, garbage and over-long Retry-After values (the backoff applies instead)', () => {
    expect(retryAfterMs(undefined)).toBeUndefined();
    expect(retryAfterMs(new Headers({}), now)).toBeUndefined();
    expect(retryAfterMs(new Headers({ 'retry-after': 'soon' }), now)).toBeUndefined();
    expect(retryAfterMs(new Headers({ 'retry-after': '3600' }), now)).toBeUndefined();
  });

  it('backs off exponentially with jitter in [0.5, 1) of the step, capped', () => {
    const policy = { maxRetries: 5, baseDelayMs: 100, maxDelayMs: 1000 };
    expect(backoffMs(1, policy, () => 0)).toBe(50);
    expect(backoffMs(3, policy, () => 0)).toBe(200);
    expect(backoffMs(3, policy, () => 0.999)).toBeLessThan(400);
    expect(backoffMs(10, policy, () => 0.999)).toBe(1000);
  });

  it('retries 408, 409, 429 and 5xx, not other 4xx', () => {
    expect([408, 409, 429, 500, 502, 503].every(isRetryableStatus)).toBe(true);
    expect([400, 401, 403, 404, 422].some(isRetryableStatus)).toBe(false);
    expect(isRetryableStatus(undefined)).toBe(false);
  });
});
