import { toApiError } from '@shared/api/api-error';
import { describe, expect, it } from 'vitest';
import { PAUSED_RETRY_INTERVAL_MS, RETRY_WINDOW_MS } from './constants';
import { DEFAULT_RETRY, isRetryable, retryAfterMs, retryDelayMs, retryGroup, withRetry, type RetryClock } from './retry';

/** A clock whose sleeps pass at once and are recorded (time jumps by each wait). */
function fakeClock(random = () => 0.5): RetryClock & { waits: number[]; time: number } {
  const clock = {
    time: 1_000_000,
    waits: [] as number[],
    now: () => clock.time,
    random,
    async sleep(ms: number, signal: AbortSignal) {
      if (signal.aborted) throw signal.reason;
      clock.waits.push(ms);
      clock.time += ms;
    },
  };
  return clock;
}

const unavailable = (retryAfter?: string) => toApiError(503, 'Service Unavailable', new Headers(retryAfter ? { 'retry-after': retryAfter } : {}), undefined);
const dropped = () => new TypeError('fetch failed');
const never = new AbortController().signal;

describe('what is retried', () => {
  it('no answer, 408, 429 and 5xx are retried; any other 4xx and 507 are not', () => {
    expect(isRetryable(dropped())).toBe(true);
    for (const status of [408, 429, 500, 502, 503, 504]) expect(isRetryable(toApiError(status, '', new Headers(), undefined)), String(status)).toBe(true);
    for (const status of [400, 401, 403, 404, 409, 413, 415, 507]) expect(isRetryable(toApiError(status, '', new Headers(), undefined)), String(status)).toBe(false);
    expect(isRetryable(new DOMException('aborted', 'AbortError'))).toBe(false);
  });

  it('a refusal fails at once, without a wait', async () => {
    const clock = fakeClock();
    let calls = 0;
    const refusal = toApiError(409, '', new Headers(), undefined);
    await expect(withRetry(async () => { calls++; throw refusal; }, DEFAULT_RETRY, never, { clock })).rejects.toBe(refusal);
    expect(calls).toBe(1);
    expect(clock.waits).toEqual([]);
  });
});

describe('back-off', () => {
  it('doubles from the base, capped, with half jitter: every wait in [full/2, full]', () => {
    expect([1, 2, 3, 4, 5, 6].map((a) => retryDelayMs(a, DEFAULT_RETRY, () => 0.999999))).toEqual([500, 1000, 2000, 4000, 8000, 8000]);
    expect([1, 2, 3, 4, 5, 6].map((a) => retryDelayMs(a, DEFAULT_RETRY, () => 0))).toEqual([250, 500, 1000, 2000, 4000, 4000]);
    for (let attempt = 1; attempt < 12; attempt++) {
      const full = Math.min(DEFAULT_RETRY.maxDelayMs, DEFAULT_RETRY.baseDelayMs * 2 ** (attempt - 1));
      for (let i = 0; i < 50; i++) {
        const wait = retryDelayMs(attempt, DEFAULT_RETRY);
        expect(wait).toBeGreaterThanOrEqual(full / 2);
        expect(wait).toBeLessThanOrEqual(full);
      }
    }
  });

  it('keeps retrying for the whole window (a minute, not ~3.5 s) before it pauses', async () => {
    const clock = fakeClock();
    let calls = 0;
    const waiting: boolean[] = [];
    const result = await withRetry(
      async () => {
        calls++;
        // Down for 50 s of back-off: longer than the old 4 attempts, shorter than the window.
        if (clock.time - 1_000_000 < 50_000) throw dropped();
        return 'done';
      },
      DEFAULT_RETRY,
      never,
      { clock, onWaiting: (w) => waiting.push(w) },
    );
    expect(result).toBe('done');
    expect(calls).toBeGreaterThan(4);
    expect(waiting).toEqual([]); // never paused
    // random 0.5: three quarters of each full wait.
    expect(clock.waits.slice(0, 6)).toEqual([375, 750, 1500, 3000, 6000, 6000]);
  });

  it('honours Retry-After (seconds or a date) when it asks for more than the back-off, capped at a minute', async () => {
    expect(retryAfterMs(unavailable('5'), DEFAULT_RETRY)).toBe(5000);
    expect(retryAfterMs(unavailable('7200'), DEFAULT_RETRY)).toBe(60_000);
    expect(retryAfterMs(unavailable(new Date(1_010_000).toUTCString()), DEFAULT_RETRY, 1_000_000)).toBe(10_000);
    expect(retryAfterMs(unavailable(), DEFAULT_RETRY)).toBeNull();
    const body = { uuid: 'u', requestUri: '/x', error: 'ServiceUnavailableException', message: 'down', metadata: { retryAfterSeconds: 3 } };
    expect(retryAfterMs(toApiError(503, '', new Headers(), body), DEFAULT_RETRY)).toBe(3000);

    const clock = fakeClock();
    let calls = 0;
    await withRetry(async () => { if (++calls < 3) throw unavailable('5'); }, DEFAULT_RETRY, never, { clock });
    expect(clock.waits).toEqual([5000, 5000]);
  });
});

describe('pause and resume', () => {
  it('after the window the call pauses (onWaiting true), retries at the paused interval and resumes by itself (onWaiting false)', async () => {
    const clock = fakeClock();
    const start = clock.time;
    const events: Array<[boolean, number]> = [];
    let calls = 0;
    const downFor = 3 * 60_000;
    const result = await withRetry(
      async () => {
        calls++;
        if (clock.time - start < downFor) throw unavailable('5');
        return 'back';
      },
      DEFAULT_RETRY,
      never,
      { clock, onWaiting: (w) => events.push([w, clock.time - start]) },
    );
    expect(result).toBe('back');
    expect(events.map(([w]) => w)).toEqual([true, false]);
    const [[, pausedAt], [, resumedAt]] = events as [[boolean, number], [boolean, number]];
    expect(pausedAt).toBeGreaterThanOrEqual(RETRY_WINDOW_MS);
    expect(pausedAt).toBeLessThan(RETRY_WINDOW_MS + 10_000);
    expect(resumedAt).toBeGreaterThanOrEqual(downFor);
    // While paused: one attempt per interval (half jitter), never a tight loop.
    const pausedWaits = clock.waits.filter((_, i) => i >= clock.waits.length - Math.ceil((downFor - pausedAt) / PAUSED_RETRY_INTERVAL_MS));
    for (const wait of pausedWaits) expect(wait).toBeGreaterThanOrEqual(PAUSED_RETRY_INTERVAL_MS / 2);
    for (const wait of clock.waits) expect(wait).toBeLessThanOrEqual(PAUSED_RETRY_INTERVAL_MS);
    expect(calls).toBeLessThan(40);
  });

  it('retryGroup: calls side by side (a file\'s parts) report one pause, from the first that waits until the last goes on', async () => {
    const clock = fakeClock();
    const start = clock.time;
    const events: boolean[] = [];
    const retrying = retryGroup(DEFAULT_RETRY, { clock, onWaiting: (w) => events.push(w) });
    // Both parts fail past the window; one comes back after 2 minutes, the other after 3.
    const part = (downFor: number) => retrying(async () => {
      if (clock.time - start < downFor) throw unavailable();
      return downFor;
    }, never);
    expect(await Promise.all([part(2 * 60_000), part(3 * 60_000)])).toEqual([2 * 60_000, 3 * 60_000]);
    expect(events).toEqual([true, false]);
    // A refusal still fails at once.
    await expect(retrying(async () => { throw toApiError(404, '', new Headers(), undefined); }, never)).rejects.toMatchObject({ status: 404 });
    expect(events).toEqual([true, false]);
  });

  it('a cancel while paused ends the wait with the abort and says it no longer waits', async () => {
    const controller = new AbortController();
    const clock = fakeClock();
    const events: boolean[] = [];
    let calls = 0;
    const run = withRetry(
      async () => {
        calls++;
        if (clock.time - 1_000_000 > 2 * RETRY_WINDOW_MS) controller.abort(new DOMException('user', 'AbortError'));
        throw dropped();
      },
      DEFAULT_RETRY,
      controller.signal,
      { clock, onWaiting: (w) => events.push(w) },
    );
    await expect(run).rejects.toBeInstanceOf(TypeError);
    expect(events).toEqual([true, false]);
    expect(calls).toBeGreaterThan(5);
  });

  it('maxAttempts, when set, fails instead of pausing', async () => {
    const clock = fakeClock();
    let calls = 0;
    await expect(withRetry(async () => { calls++; throw unavailable(); }, { ...DEFAULT_RETRY, maxAttempts: 3 }, never, { clock })).rejects.toMatchObject({ status: 503 });
    expect(calls).toBe(3);
  });
});
