import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRateLimiter, RATE_LIMIT_BUCKETS } from './rate-limiter';
import { openTempDatabase } from './temp-database.test-helper';

describe('rate limiter (SQLite)', () => {
  let handle: Awaited<ReturnType<typeof openTempDatabase>>;
  let now = 1_700_000_000_000;
  const clock = () => now;
  beforeEach(async () => {
    handle = await openTempDatabase();
    now = 1_700_000_000_000;
  });
  afterEach(() => handle.dispose());

  it('counts failures per subject in a sliding window, case-insensitively', async () => {
    const limiter = createRateLimiter(handle.db, clock);
    const bucket = RATE_LIMIT_BUCKETS.loginFailureAccount;
    await limiter.record(bucket, 'Alice');
    now += 1000;
    await limiter.record(bucket, 'alice ');
    await limiter.record(RATE_LIMIT_BUCKETS.loginFailureIp, 'alice');
    expect(await limiter.count(bucket, 'ALICE', 60_000)).toBe(2);
    expect(await limiter.count(bucket, 'bob', 60_000)).toBe(0);
    now += 59_500;
    expect(await limiter.count(bucket, 'alice', 60_000)).toBe(1);
    await limiter.clear(bucket, 'alice');
    expect(await limiter.count(bucket, 'alice', 60_000)).toBe(0);
    expect(await limiter.count(RATE_LIMIT_BUCKETS.loginFailureIp, 'alice', 60_000)).toBe(1);
  });

  it('hit allows `limit` events per window and says when the next one is possible', async () => {
    const limiter = createRateLimiter(handle.db, clock);
    const window = { limit: 3, windowMs: 60_000 };
    for (let i = 0; i < 3; i++) {
      expect((await limiter.hit(RATE_LIMIT_BUCKETS.passwordResetIp, '10.0.0.1', window)).allowed).toBe(true);
      now += 10_000;
    }
    const refused = await limiter.hit(RATE_LIMIT_BUCKETS.passwordResetIp, '10.0.0.1', window);
    expect(refused.allowed).toBe(false);
    expect(refused.retryAfterMs).toBe(30_000);
    expect((await limiter.hit(RATE_LIMIT_BUCKETS.passwordResetIp, '10.0.0.2', window)).allowed).toBe(true);
    now += 60_001;
    expect((await limiter.hit(RATE_LIMIT_BUCKETS.passwordResetIp, '10.0.0.1', window)).allowed).toBe(true);
  });

  it('prunes old events', async () => {
    const limiter = createRateLimiter(handle.db, clock);
    await limiter.record(RATE_LIMIT_BUCKETS.loginFailureIp, 'a');
    now += 120_000;
    await limiter.record(RATE_LIMIT_BUCKETS.loginFailureIp, 'a');
    expect(await limiter.prune(60_000)).toBe(1);
    expect(await limiter.count(RATE_LIMIT_BUCKETS.loginFailureIp, 'a', 10 * 60_000)).toBe(1);
  });
});
