import { describe, expect, it } from 'vitest';
import { bytesEqual, fromBase64Url, toBase64Url, toHex } from './bytes';
import { checkContactKey, assertKeyUsable, confirmChangedKey, MemoryKeyPinStore } from './key-pinning';
import { fingerprintOf, formatFingerprint, generateWrappableKeyPair, importUserKeyPair, keyIdOf } from './keys';

describe('keys, fingerprints and pinning', () => {
  it('fingerprint = SHA-256(SPKI), shown as 16 groups of 4, key id = its first 16 bytes', async () => {
    const { publicKeySpki } = await generateWrappableKeyPair('encryption');
    const fingerprint = await fingerprintOf(publicKeySpki);
    expect(toHex(fingerprint)).toBe(toHex(new Uint8Array(await crypto.subtle.digest('SHA-256', publicKeySpki as Uint8Array<ArrayBuffer>))));
    expect(formatFingerprint(fingerprint)).toMatch(/^([0-9A-F]{4} ){15}[0-9A-F]{4}$/);
    expect(bytesEqual(fromBase64Url(await keyIdOf(publicKeySpki)), fingerprint.subarray(0, 16))).toBe(true);
  });

  it('refuses a private key that does not belong to the stated public key', async () => {
    const a = await generateWrappableKeyPair('signing');
    const b = await generateWrappableKeyPair('signing');
    await expect(importUserKeyPair({ usage: 'signing', pkcs8: a.pkcs8, publicKeySpki: b.publicKeySpki })).rejects.toMatchObject({ code: 'public-key-invalid' });
    await expect(importUserKeyPair({ usage: 'signing', pkcs8: a.pkcs8, publicKeySpki: fromBase64Url(toBase64Url(new Uint8Array(10))) })).rejects.toMatchObject({
      code: 'public-key-invalid',
    });
  });

  it('pins on first use, matches after, flags a changed key until the user confirms it', async () => {
    const store = new MemoryKeyPinStore();
    expect(await checkContactKey(store, 'bob', 'aa')).toEqual({ status: 'first-use', fingerprint: 'aa' });
    expect(await checkContactKey(store, 'bob', 'aa')).toEqual({ status: 'match', fingerprint: 'aa' });
    const changed = await checkContactKey(store, 'bob', 'bb');
    expect(changed).toEqual({ status: 'changed', pinnedFingerprint: 'aa', presentedFingerprint: 'bb' });
    expect(() => assertKeyUsable(changed)).toThrow(expect.objectContaining({ code: 'contact-key-changed' }));
    // Asking again does not silently adopt the new key.
    expect((await checkContactKey(store, 'bob', 'bb')).status).toBe('changed');
    await confirmChangedKey(store, 'bob', 'bb');
    expect((await checkContactKey(store, 'bob', 'bb')).status).toBe('match');
  });
});
