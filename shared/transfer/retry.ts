// The transfer engine's retry (issue 29 §3): while the server is unreachable or answers 503, a
// call is retried with capped exponential back-off and jitter for RETRY_WINDOW_MS (honouring
// Retry-After); after that the transfer pauses ("waiting for the server", SPEC §4 `paused`) and
// tries again every PAUSED_RETRY_INTERVAL_MS until the server answers, then goes on by itself. A
// refusal (4xx other than 408/429, and 507) fails at once. The clock is injectable for unit tests.
import { ApiError } from '@shared/api/api-error';
import { MAX_RETRY_AFTER_MS, PAUSED_RETRY_INTERVAL_MS, RETRY_BASE_DELAY_MS, RETRY_MAX_DELAY_MS, RETRY_WINDOW_MS } from './constants';

export interface RetryPolicy {
  /** First back-off wait (before half jitter), doubled per attempt. */
  baseDelayMs: number;
  /** Cap of one back-off wait. */
  maxDelayMs: number;
  /** How long failures are retried with back-off before the transfer pauses (default RETRY_WINDOW_MS). */
  retryWindowMs?: number;
  /** While paused: the wait between attempts (default PAUSED_RETRY_INTERVAL_MS, half jitter). */
  pausedIntervalMs?: number;
  /** The longest `Retry-After` honoured (default MAX_RETRY_AFTER_MS). */
  maxRetryAfterMs?: number;
  /**
   * Fail after this many attempts instead of pausing: for callers that resume by themselves
   * (tests of the manual resume). Unset (the default): never give up while the server is away.
   */
  maxAttempts?: number;
}

export const DEFAULT_RETRY: RetryPolicy = {
  baseDelayMs: RETRY_BASE_DELAY_MS,
  maxDelayMs: RETRY_MAX_DELAY_MS,
  retryWindowMs: RETRY_WINDOW_MS,
  pausedIntervalMs: PAUSED_RETRY_INTERVAL_MS,
  maxRetryAfterMs: MAX_RETRY_AFTER_MS,
};

/** Time and chance, injectable: unit tests run a minute of outage in no time. */
export interface RetryClock {
  now(): number;
  /** Resolves after `ms`, rejects with the signal's reason when it aborts. */
  sleep(ms: number, signal: AbortSignal): Promise<void>;
  /** In [0, 1). */
  random(): number;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

export const REAL_CLOCK: RetryClock = { now: () => Date.now(), sleep, random: () => Math.random() };

export interface RetryHooks {
  clock?: RetryClock;
  /** true when the call starts waiting for the server (paused), false when it goes on or ends. */
  onWaiting?: (waiting: boolean) => void;
  /** Which failures are worth another attempt (default `isRetryable`). */
  retryable?: (error: unknown) => boolean;
}

/** Whether a failed call is worth another attempt: no answer, a timeout, or a server-side hiccup (never a refusal). */
export function isRetryable(error: unknown): boolean {
  if (error instanceof ApiError) return error.status === 408 || error.status === 429 || (error.status >= 500 && error.status !== 507);
  return error instanceof TypeError; // fetch: no answer at all
}

/** Only an answer saying nothing was done (429, 503): for calls that are not idempotent (an announce). */
export const isRefusedForNow = (error: unknown): boolean => error instanceof ApiError && (error.status === 429 || error.status === 503);

/** Back-off before attempt `attempt + 1` (attempt ≥ 1): exponential, capped, with half jitter (in [full/2, full]). */
export function retryDelayMs(attempt: number, policy: RetryPolicy, random: () => number = Math.random): number {
  const full = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return Math.round(full / 2 + (random() * full) / 2);
}

/** The server's `Retry-After` (seconds or an HTTP date; else `metadata.retryAfterSeconds`) in ms, capped; null without one. */
export function retryAfterMs(error: unknown, policy: RetryPolicy, now: number = Date.now()): number | null {
  if (!(error instanceof ApiError)) return null;
  const cap = policy.maxRetryAfterMs ?? MAX_RETRY_AFTER_MS;
  const header = error.headers.get('retry-after')?.trim();
  let ms: number | null = null;
  if (header && /^\d+$/.test(header)) ms = Number(header) * 1000;
  else if (header && !Number.isNaN(Date.parse(header))) ms = Math.max(0, Date.parse(header) - now);
  else {
    const seconds = error.error?.metadata.retryAfterSeconds;
    if (typeof seconds === 'number' && Number.isFinite(seconds) && seconds >= 0) ms = seconds * 1000;
  }
  return ms === null ? null : Math.min(cap, ms);
}

/**
 * Calls `call` until it succeeds or fails for good: a refusal, an abort, or `maxAttempts` when
 * set. Between attempts: the back-off (at least the server's Retry-After) while the failures are
 * younger than the retry window, then, paused (`onWaiting(true)`), the paused interval.
 */
export async function withRetry<T>(call: () => Promise<T>, policy: RetryPolicy, signal: AbortSignal, hooks: RetryHooks = {}): Promise<T> {
  const clock = hooks.clock ?? REAL_CLOCK;
  const retryable = hooks.retryable ?? isRetryable;
  const windowMs = policy.retryWindowMs ?? RETRY_WINDOW_MS;
  const pausedMs = policy.pausedIntervalMs ?? PAUSED_RETRY_INTERVAL_MS;
  let firstFailure: number | undefined;
  let waiting = false;
  try {
    for (let attempt = 1; ; attempt++) {
      try {
        return await call();
      } catch (error) {
        if (signal.aborted || !retryable(error)) throw error;
        if (policy.maxAttempts !== undefined && attempt >= policy.maxAttempts) throw error;
        const now = clock.now();
        firstFailure ??= now;
        const serverAsks = retryAfterMs(error, policy, now) ?? 0;
        if (!waiting && now - firstFailure < windowMs) {
          await clock.sleep(Math.max(serverAsks, retryDelayMs(attempt, policy, clock.random)), signal);
          continue;
        }
        if (!waiting) {
          waiting = true;
          hooks.onWaiting?.(true);
        }
        await clock.sleep(Math.max(serverAsks, Math.round(pausedMs / 2 + (clock.random() * pausedMs) / 2)), signal);
      }
    }
  } finally {
    if (waiting) hooks.onWaiting?.(false);
  }
}

/**
 * `withRetry` for the calls of one file, which run side by side (its parts): `onWaiting(true)` once
 * the first of them pauses, `onWaiting(false)` once none waits any more.
 */
export function retryGroup(policy: RetryPolicy, hooks: Omit<RetryHooks, 'retryable'> = {}) {
  let waitingCalls = 0;
  const onWaiting = (waiting: boolean) => {
    waitingCalls += waiting ? 1 : -1;
    if (waiting ? waitingCalls === 1 : waitingCalls === 0) hooks.onWaiting?.(waiting);
  };
  return <T>(call: () => Promise<T>, signal: AbortSignal, retryable?: (error: unknown) => boolean): Promise<T> =>
    withRetry(call, policy, signal, { onWaiting, ...(hooks.clock ? { clock: hooks.clock } : {}), ...(retryable ? { retryable } : {}) });
}
