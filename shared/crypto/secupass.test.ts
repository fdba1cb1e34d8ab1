import { describe, expect, it } from 'vitest';
import { fromBase64Url, toBase64Url } from './bytes';
import { generateWrappableKeyPair } from './keys';
import {
  SECUPASS_V2_MIN_ITERATIONS,
  SECUPASS_V3_CEILING,
  SECUPASS_V3_PARAMETERS,
  changeSecuPass,
  setupSecuPass,
  unlockSecuPass,
  writeLegacyV2Blob,
  type SecuPassBlobV3,
} from './secupass';
import { subtle } from './subtle';

const userId = 'user-42';
const passphrase = 'Tr0ub4dor & 3 horses';

describe('SecuPass v3', { timeout: 60_000 }, () => {
  it('sets up two key pairs at the v3 parameters and unlocks them non-extractable', async () => {
    const { blob, keys } = await setupSecuPass({ userId, passphrase });
    expect(blob.version).toBe(3);
    expect(blob.kdf).toMatchObject({ name: 'argon2id', ...SECUPASS_V3_PARAMETERS });
    expect(fromBase64Url(blob.kdf.salt)).toHaveLength(16);
    expect(keys.map((key) => key.usage).sort()).toEqual(['encryption', 'signing']);
    // The blob is plain JSON: what the server stores.
    expect(JSON.parse(JSON.stringify(blob))).toEqual(blob);

    const unlocked = await unlockSecuPass({ userId, blob, passphrase });
    expect(unlocked.upgradedBlob).toBeUndefined();
    for (const key of unlocked.keys) {
      expect(key.privateKey.extractable).toBe(false);
      await expect(subtle().exportKey('pkcs8', key.privateKey)).rejects.toThrow();
    }
    expect(unlocked.keys.map((key) => key.keyId).sort()).toEqual(keys.map((key) => key.keyId).sort());
  });

  it('refuses a wrong passphrase, another user id and a tampered blob as a wrong passphrase', async () => {
    const { blob } = await setupSecuPass({ userId, passphrase });
    await expect(unlockSecuPass({ userId, blob, passphrase: `${passphrase}!` })).rejects.toMatchObject({ code: 'secupass-wrong-passphrase' });
    await expect(unlockSecuPass({ userId: 'user-43', blob, passphrase })).rejects.toMatchObject({ code: 'secupass-wrong-passphrase' });
    const key = blob.keys[0] as SecuPassBlobV3['keys'][number];
    const wrapped = fromBase64Url(key.wrappedKey);
    wrapped[5] = (wrapped[5] ?? 0) ^ 1;
    const tampered = { ...blob, keys: [{ ...key, wrappedKey: toBase64Url(wrapped) }, ...blob.keys.slice(1)] };
    await expect(unlockSecuPass({ userId, blob: tampered, passphrase })).rejects.toMatchObject({ code: 'secupass-wrong-passphrase' });
    // Swapping the key ids of the two entries breaks the associated data.
    const swapped = { ...blob, keys: blob.keys.map((entry, i) => ({ ...entry, keyId: (blob.keys[1 - i] as SecuPassBlobV3['keys'][number]).keyId })) };
    await expect(unlockSecuPass({ userId, blob: swapped, passphrase })).rejects.toMatchObject({ code: 'secupass-wrong-passphrase' });
  });

  it('treats the passphrase as NFC (composed and decomposed umlauts are the same passphrase)', async () => {
    const { blob } = await setupSecuPass({ userId, passphrase: 'Grüße aus Köln' });
    await expect(unlockSecuPass({ userId, blob, passphrase: 'Gru\u0308ße aus Ko\u0308ln' })).resolves.toBeTruthy();
  });

  it('refuses Argon2id parameters below the floor or above the ceiling (no server downgrade)', async () => {
    const { blob } = await setupSecuPass({ userId, passphrase });
    const withKdf = (kdf: Partial<SecuPassBlobV3['kdf']>) => ({ ...blob, kdf: { ...blob.kdf, ...kdf } });
    for (const weaker of [{ memoryKiB: 32 * 1024 }, { iterations: 2 }, { parallelism: 0 }, { memoryKiB: 65536.5 }]) {
      await expect(unlockSecuPass({ userId, blob: withKdf(weaker), passphrase })).rejects.toMatchObject({ code: 'secupass-kdf-parameters-rejected' });
    }
    for (const heavier of [{ memoryKiB: SECUPASS_V3_CEILING.memoryKiB * 2 }, { iterations: 1000 }, { parallelism: 64 }]) {
      await expect(unlockSecuPass({ userId, blob: withKdf(heavier), passphrase })).rejects.toMatchObject({ code: 'secupass-kdf-parameters-rejected' });
    }
    await expect(unlockSecuPass({ userId, blob: withKdf({ salt: toBase64Url(new Uint8Array(8)) }), passphrase })).rejects.toMatchObject({
      code: 'secupass-kdf-parameters-rejected',
    });
    await expect(setupSecuPass({ userId, passphrase, parameters: { memoryKiB: 1024, iterations: 1, parallelism: 1 } })).rejects.toMatchObject({
      code: 'secupass-kdf-parameters-rejected',
    });
  });

  it('refuses blobs that are not SecuPass blobs', async () => {
    for (const junk of [null, {}, { version: 4, kdf: { name: 'argon2id', salt: '' }, keys: [] }, { version: 3, kdf: { name: 'scrypt', salt: 'AA' }, keys: [] }]) {
      await expect(unlockSecuPass({ userId, blob: junk, passphrase })).rejects.toMatchObject({ code: 'secupass-blob-invalid' });
    }
  });

  it('changes the passphrase by re-wrapping: same key pairs, new salt, old passphrase no longer opens it', async () => {
    const { blob, keys } = await setupSecuPass({ userId, passphrase });
    const changed = await changeSecuPass({ userId, blob, currentPassphrase: passphrase, newPassphrase: 'a new and longer passphrase' });
    expect(changed.blob.kdf.salt).not.toBe(blob.kdf.salt);
    expect(changed.blob.keys.map((key) => key.publicKey)).toEqual(blob.keys.map((key) => key.publicKey));
    expect(changed.keys.map((key) => key.keyId).sort()).toEqual(keys.map((key) => key.keyId).sort());
    await expect(unlockSecuPass({ userId, blob: changed.blob, passphrase })).rejects.toMatchObject({ code: 'secupass-wrong-passphrase' });
    await expect(unlockSecuPass({ userId, blob: changed.blob, passphrase: 'a new and longer passphrase' })).resolves.toBeTruthy();
    await expect(changeSecuPass({ userId, blob, currentPassphrase: 'wrong', newPassphrase: 'x' })).rejects.toMatchObject({ code: 'secupass-wrong-passphrase' });
  });

  it('reads a v2 (PBKDF2) blob once and returns it upgraded to v3 with the same keys', async () => {
    const encryption = await generateWrappableKeyPair('encryption');
    const signing = await generateWrappableKeyPair('signing');
    const v2 = await writeLegacyV2Blob({
      userId,
      passphrase,
      iterations: SECUPASS_V2_MIN_ITERATIONS,
      keys: [
        { usage: 'encryption', ...encryption },
        { usage: 'signing', ...signing },
      ],
    });
    const unlocked = await unlockSecuPass({ userId, blob: v2, passphrase });
    const upgraded = unlocked.upgradedBlob as SecuPassBlobV3;
    expect(upgraded.version).toBe(3);
    expect(upgraded.kdf).toMatchObject(SECUPASS_V3_PARAMETERS);
    expect(upgraded.keys.map((key) => key.publicKey)).toEqual([toBase64Url(encryption.publicKeySpki), toBase64Url(signing.publicKeySpki)]);
    const again = await unlockSecuPass({ userId, blob: upgraded, passphrase });
    expect(again.upgradedBlob).toBeUndefined();
    await expect(unlockSecuPass({ userId, blob: { ...v2, kdf: { ...v2.kdf, iterations: 1000 } }, passphrase })).rejects.toMatchObject({
      code: 'secupass-kdf-parameters-rejected',
    });
  });
});
