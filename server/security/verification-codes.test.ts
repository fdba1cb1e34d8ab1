import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { VERIFICATION_CODE_TTL_MS } from '@shared/contract/auth-escalation';
import { openTempDatabase, insertUser } from './temp-database.test-helper';
import { createVerificationCodes, VERIFICATION_MAX_ATTEMPTS, VERIFICATION_RESEND_INTERVAL_MS } from './verification-codes';

describe('email verification codes (SQLite)', () => {
  let handle: Awaited<ReturnType<typeof openTempDatabase>>;
  let userId: number;
  let now = 1_700_000_000_000;
  const clock = () => now;
  beforeEach(async () => {
    handle = await openTempDatabase();
    userId = await insertUser(handle);
  });
  afterEach(() => handle.dispose());

  it('issues 6 digits, stores only a hash, and consumes a valid code', async () => {
    const codes = createVerificationCodes(handle.db, clock);
    const code = await codes.issue(userId);
    expect(code).toMatch(/^\d{6}$/);
    const row = await handle.db.selectFrom('verification_codes').selectAll().executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(code!);
    expect(await codes.verify(userId, `${code!.slice(0, 3)} ${code!.slice(3)}`)).toBe('valid');
    expect(await codes.verify(userId, code!)).toBe('missing');
  });

  it('does not re-send within a minute unless forced', async () => {
    const codes = createVerificationCodes(handle.db, clock);
    const first = await codes.issue(userId);
    expect(await codes.issue(userId)).toBeNull();
    const forced = await codes.issue(userId, { force: true });
    expect(forced).toMatch(/^\d{6}$/);
    now += VERIFICATION_RESEND_INTERVAL_MS;
    const later = await codes.issue(userId);
    expect(later).toMatch(/^\d{6}$/);
    // Only the newest code counts.
    if (first !== later) expect(await codes.verify(userId, first!)).toBe('wrong');
    expect(await codes.verify(userId, later!)).toBe('valid');
  });

  it('locks after the maximum attempts and expires after 15 minutes', async () => {
    const codes = createVerificationCodes(handle.db, clock);
    const code = (await codes.issue(userId))!;
    const wrong = code === '000000' ? '000001' : '000000';
    for (let i = 0; i < VERIFICATION_MAX_ATTEMPTS; i++) expect(await codes.verify(userId, wrong)).toBe('wrong');
    expect(await codes.verify(userId, code)).toBe('locked');
    // A locked code does not block a new one.
    const fresh = (await codes.issue(userId))!;
    now += VERIFICATION_CODE_TTL_MS;
    expect(await codes.verify(userId, fresh)).toBe('expired');
  });
});
