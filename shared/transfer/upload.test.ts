import { toApiError } from '@shared/api/api-error';
import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRY, isRetryable, retryDelayMs } from './upload';

describe('upload retry policy', () => {
  it('retries no answer and server hiccups, never a refusal or a full store', () => {
    expect(isRetryable(new TypeError('fetch failed'))).toBe(true);
    for (const status of [408, 429, 500, 502, 503]) expect(isRetryable(toApiError(status, '', new Headers(), undefined)), String(status)).toBe(true);
    for (const status of [400, 401, 403, 404, 409, 413, 507]) expect(isRetryable(toApiError(status, '', new Headers(), undefined)), String(status)).toBe(false);
    expect(isRetryable(new DOMException('aborted', 'AbortError'))).toBe(false);
  });

  it('backs off exponentially with half jitter, capped', () => {
    expect([1, 2, 3, 4].map((a) => retryDelayMs(a, DEFAULT_RETRY, () => 1))).toEqual([500, 1000, 2000, 4000]);
    expect([1, 2, 3].map((a) => retryDelayMs(a, DEFAULT_RETRY, () => 0))).toEqual([250, 500, 1000]);
    expect(retryDelayMs(10, DEFAULT_RETRY, () => 1)).toBe(8000);
  });
});
