import { describe, expect, it } from 'vitest';
import { fromBase64Url, toBase64Url } from './bytes';
import type { ContactPinList, SealedContactPins } from './contact-pins';
import { createCryptoService } from './service';

const list = (owner: string, counter: number, pins: Record<string, string> = { 'u1:signing': 'a'.repeat(64) }): ContactPinList => ({
  format: 1,
  ownerUserId: owner,
  counter,
  updatedAt: '2026-11-23T00:00:00.000Z',
  pins,
  verified: { 'u1:signing': 'a'.repeat(64) },
});

describe('contact pin list (signed, encrypted to oneself)', () => {
  it('round trip; every changed field, another owner, another counter and another user are refused', { timeout: 60_000 }, async () => {
    const crypto = createCryptoService();
    const { keys } = await crypto.setupSecuPass({ userId: 'owner-1', passphrase: 'pins passphrase one' });
    const other = createCryptoService();
    const { keys: otherKeys } = await other.setupSecuPass({ userId: 'owner-2', passphrase: 'pins passphrase two' });
    const own = { signingKey: keys.signing.handle, encryptionKey: keys.encryption.handle };
    const sealed = await crypto.sealContactPins({ ...own, list: list('owner-1', 3) });
    expect(sealed).toMatchObject({ format: 1, counter: 3, signerKeyId: keys.signing.keyId });
    expect(JSON.stringify(sealed)).not.toContain('a'.repeat(64));
    expect(await crypto.openContactPins({ ...own, ownerUserId: 'owner-1', sealed })).toEqual(list('owner-1', 3));

    const refused = async (mutated: SealedContactPins, ownerUserId = 'owner-1') =>
      expect(crypto.openContactPins({ ...own, ownerUserId, sealed: mutated })).rejects.toMatchObject({ code: 'contact-pins-invalid' });
    const flip = (b64: string, at: number) => {
      const bytes = fromBase64Url(b64);
      bytes[at] = (bytes[at] ?? 0) ^ 1;
      return toBase64Url(bytes);
    };
    await refused({ ...sealed, ciphertext: flip(sealed.ciphertext, 5) });
    await refused({ ...sealed, iv: flip(sealed.iv, 0) });
    await refused({ ...sealed, wrappedKey: { ...sealed.wrappedKey, ciphertext: flip(sealed.wrappedKey.ciphertext, 3) } });
    await refused({ ...sealed, counter: 4 }); // the counter is in the AAD
    await refused(sealed, 'owner-2'); // another owner: the key binding and the AAD differ
    // A list the other user sealed for herself and that the server hands to owner-1.
    const foreign = await other.sealContactPins({ signingKey: otherKeys.signing.handle, encryptionKey: otherKeys.encryption.handle, list: list('owner-1', 3) });
    await refused(foreign);
    await expect(crypto.sealContactPins({ ...own, list: list('owner-1', 0) })).rejects.toMatchObject({ code: 'contact-pins-invalid' });
  });

  it('the highest file counters (README section 7 "Version chain") travel signed; malformed ones are refused', { timeout: 60_000 }, async () => {
    const crypto = createCryptoService();
    const { keys } = await crypto.setupSecuPass({ userId: 'owner-1', passphrase: 'pins passphrase three' });
    const own = { signingKey: keys.signing.handle, encryptionKey: keys.encryption.handle, ownerUserId: 'owner-1' };
    const withCounters = { ...list('owner-1', 2), fileCounters: { 'file-1': 3, 'file-2': 1 } };
    expect(await crypto.openContactPins({ ...own, sealed: await crypto.sealContactPins({ ...own, list: withCounters }) })).toEqual(withCounters);
    for (const fileCounters of [{ 'file-1': 0 }, { 'file-1': '3' }, { 'file-1': 1.5 }, null]) {
      const sealed = await crypto.sealContactPins({ ...own, list: { ...list('owner-1', 2), fileCounters } as unknown as ContactPinList }).catch(() => null);
      // 1.5 cannot even be signed (canonical JSON takes safe integers only).
      if (sealed) await expect(crypto.openContactPins({ ...own, sealed })).rejects.toMatchObject({ code: 'contact-pins-invalid' });
    }
  });

  it('the highest member list versions (README section 7 "The highest list version seen") travel signed; malformed ones are refused', { timeout: 60_000 }, async () => {
    const crypto = createCryptoService();
    const { keys } = await crypto.setupSecuPass({ userId: 'owner-1', passphrase: 'pins passphrase four' });
    const own = { signingKey: keys.signing.handle, encryptionKey: keys.encryption.handle, ownerUserId: 'owner-1' };
    const withVersions = { ...list('owner-1', 2), memberListVersions: { 'room-1': 4 } };
    expect(await crypto.openContactPins({ ...own, sealed: await crypto.sealContactPins({ ...own, list: withVersions }) })).toEqual(withVersions);
    for (const memberListVersions of [{ 'room-1': 0 }, { 'room-1': '4' }, null]) {
      const sealed = await crypto.sealContactPins({ ...own, list: { ...list('owner-1', 2), memberListVersions } as unknown as ContactPinList });
      await expect(crypto.openContactPins({ ...own, sealed })).rejects.toMatchObject({ code: 'contact-pins-invalid' });
    }
  });
});
