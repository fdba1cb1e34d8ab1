import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createSecretBox, isSealed } from './secret-box';

describe('secret box (TOTP secrets at rest)', () => {
  const key = randomBytes(32);
  const box = createSecretBox(key);
  const secret = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';

  it('seals to an enc1: value without the plaintext, fresh each time, and opens it again', () => {
    const a = box.seal(7, 'totp_secret', secret);
    const b = box.seal(7, 'totp_secret', secret);
    expect(isSealed(a)).toBe(true);
    expect(a).not.toContain(secret);
    expect(a).not.toBe(b);
    expect(box.open(7, 'totp_secret', a)).toBe(secret);
    expect(isSealed(secret)).toBe(false);
  });

  it('refuses another key, another user, another column and any flipped byte', () => {
    const sealed = box.seal(7, 'totp_secret', secret);
    expect(() => createSecretBox(randomBytes(32)).open(7, 'totp_secret', sealed)).toThrow();
    expect(() => box.open(8, 'totp_secret', sealed)).toThrow();
    expect(() => box.open(7, 'totp_pending_secret', sealed)).toThrow();
    const raw = Buffer.from(sealed.slice('enc1:'.length), 'base64url');
    for (const index of [0, 12, raw.length - 1]) {
      const mutated = Buffer.from(raw);
      mutated[index] = mutated[index]! ^ 0x01;
      expect(() => box.open(7, 'totp_secret', `enc1:${mutated.toString('base64url')}`)).toThrow();
    }
    expect(() => box.open(7, 'totp_secret', secret)).toThrow();
    expect(() => box.open(7, 'totp_secret', 'enc1:AAAA')).toThrow();
  });

  it('needs a 32-byte key', () => {
    expect(() => createSecretBox(randomBytes(16))).toThrow();
  });
});
