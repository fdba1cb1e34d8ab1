import { Secret, TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import { createRateLimiter } from './rate-limiter';
import { openTempDatabase } from './temp-database.test-helper';
import { acceptTotpCodeOnce, currentTotpCode, generateTotpSecret, qrCodeDataUrl, totpStepOf, totpUri, verifyTotpCode } from './totp';

describe('TOTP helpers', () => {
  const t0 = 1_700_000_000_000;

  it('matches an independent otpauth instance (SHA1, 6 digits, 30 s)', () => {
    const secret = generateTotpSecret();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const app = new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 });
    expect(verifyTotpCode(secret, app.generate({ timestamp: t0 }), t0)).toBe(true);
    expect(currentTotpCode(secret, t0)).toBe(app.generate({ timestamp: t0 }));
  });

  it('accepts one step of drift either side, not two, and removes whitespace', () => {
    const secret = generateTotpSecret();
    const code = currentTotpCode(secret, t0);
    expect(verifyTotpCode(secret, `${code.slice(0, 3)} ${code.slice(3)}`, t0)).toBe(true);
    expect(verifyTotpCode(secret, code, t0 + 30_000)).toBe(true);
    expect(verifyTotpCode(secret, code, t0 - 30_000)).toBe(true);
    expect(verifyTotpCode(secret, code, t0 + 90_000)).toBe(false);
  });

  it('refuses malformed codes', () => {
    const secret = generateTotpSecret();
    expect(verifyTotpCode(secret, '', t0)).toBe(false);
    expect(verifyTotpCode(secret, '12345', t0)).toBe(false);
    expect(verifyTotpCode(secret, 'abcdef', t0)).toBe(false);
  });

  it('builds the otpauth URI and a PNG QR code', async () => {
    const secret = generateTotpSecret();
    const uri = totpUri(secret, 'alice@example.test');
    expect(uri).toMatch(/^otpauth:\/\/totp\/Kuvert:alice%40example\.test\?/);
    expect(uri).toContain(`secret=${secret}`);
    expect(await qrCodeDataUrl(uri)).toMatch(/^data:image\/png;base64,/);
  });
});

describe('TOTP replay guard (SQLite)', () => {
  it('accepts a code once per user and time step', async () => {
    const handle = await openTempDatabase();
    try {
      const limiter = createRateLimiter(handle.db);
      const secret = generateTotpSecret();
      const now = Date.now();
      const code = currentTotpCode(secret, now);
      expect(totpStepOf(secret, code, now)).toBe(Math.floor(now / 30_000));
      expect(await acceptTotpCodeOnce(limiter, 1, secret, code, now)).toBe(true);
      expect(await acceptTotpCodeOnce(limiter, 1, secret, code, now + 1000)).toBe(false);
      // Another user's use of the same digits is independent.
      expect(await acceptTotpCodeOnce(limiter, 2, secret, code, now)).toBe(true);
      // The next step's code is fine.
      expect(await acceptTotpCodeOnce(limiter, 1, secret, currentTotpCode(secret, now + 30_000), now)).toBe(true);
      expect(await acceptTotpCodeOnce(limiter, 1, secret, '12345', now)).toBe(false);
    } finally {
      await handle.dispose();
    }
  });
});
