import { describe, expect, it } from 'vitest';
import { contactKeyState, judgeScannedCode, parseVerificationQr, verificationQrText } from './contact-verification';

const UUID = '0b6f6c1e-2f4a-4c39-9a57-6d1c3f1e9a10';
const FP = 'ab12cd34'.repeat(8);

describe('verification QR codes', () => {
  it('round-trips the text the dialog draws', () => {
    const text = verificationQrText(UUID, 'encryption', FP.toUpperCase());
    expect(text).toBe(`kuvert-key:1:${UUID}:encryption:${FP}`);
    expect(parseVerificationQr(text)).toEqual({ userUuid: UUID, usage: 'encryption', fingerprint: FP });
    expect(parseVerificationQr(` ${text.toUpperCase()}\n`)).toEqual({ userUuid: UUID, usage: 'encryption', fingerprint: FP });
  });

  it('refuses anything else', () => {
    for (const text of ['', 'https://example.test', `kuvert-key:2:${UUID}:encryption:${FP}`, `kuvert-key:1:${UUID}:other:${FP}`, `kuvert-key:1:${UUID}:signing:xyz`, `kuvert-key:1:${UUID}:signing:${FP}:extra`]) {
      expect(parseVerificationQr(text), text).toBeNull();
    }
  });

  it('judges a scanned code against the contact: only the same person, usage and key match', () => {
    const expected = { userUuid: UUID, usage: 'encryption' as const, fingerprint: FP };
    expect(judgeScannedCode(verificationQrText(UUID, 'encryption', FP), expected)).toBe('match');
    expect(judgeScannedCode(verificationQrText(UUID, 'encryption', FP), { ...expected, fingerprint: FP.toUpperCase().match(/.{4}/g)!.join(' ') })).toBe('match');
    expect(judgeScannedCode(verificationQrText(UUID, 'encryption', 'ff'.repeat(32)), expected)).toBe('otherKey');
    expect(judgeScannedCode(verificationQrText(UUID, 'signing', FP), expected)).toBe('otherKey');
    expect(judgeScannedCode(verificationQrText('11111111-2f4a-4c39-9a57-6d1c3f1e9a10', 'encryption', FP), expected)).toBe('otherPerson');
    expect(judgeScannedCode('hello', expected)).toBe('notKuvert');
  });
});

describe('contactKeyState', () => {
  it('verified only for the pinned key the user verified; a key the pins do not hold is unseen', () => {
    expect(contactKeyState({ pinned: FP, verified: FP }, FP)).toBe('verified');
    expect(contactKeyState({ pinned: FP, verified: undefined }, FP)).toBe('pinned');
    expect(contactKeyState({ pinned: undefined, verified: undefined }, FP)).toBe('unseen');
    // A new key since: neither the old pin nor its verification count for it.
    expect(contactKeyState({ pinned: FP, verified: FP }, 'ff'.repeat(32))).toBe('unseen');
  });
});
