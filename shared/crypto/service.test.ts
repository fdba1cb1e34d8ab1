import { describe, expect, it } from 'vitest';
import { CryptoService, type CryptoApi } from './service';
import { bytesToStream, collectStream } from './stream-encoder';
import { CryptoError, WrongPassphraseError } from './errors';
import { proxiedService } from './test-helpers/proxied-service';

/** The proxy over a real MessageChannel, the same message path as a dedicated Worker. */
const userId = 'user-1';

for (const [name, make] of [
  ['direct (Node)', () => new CryptoService()],
  ['through the Worker proxy', proxiedService],
] as const) {
  describe(`CryptoApi ${name}`, { timeout: 60_000 }, () => {
    it('sender → recipient: setup, wrap to recipient, sign, encrypt; recipient unwraps, verifies, decrypts', async () => {
      const sender: CryptoApi = make();
      const recipient: CryptoApi = make();
      const alice = await sender.setupSecuPass({ userId: 'alice', passphrase: 'alice passphrase' });
      const bob = await recipient.setupSecuPass({ userId: 'bob', passphrase: 'bob passphrase' });
      // Handles are opaque strings; the results carry no private material.
      expect(typeof alice.keys.encryption.handle).toBe('string');
      expect(JSON.stringify(alice)).not.toMatch(/pkcs8|privateKey/);
      expect(alice.keys.encryption.fingerprintDisplay).toMatch(/^([0-9A-F]{4} ){15}[0-9A-F]{4}$/);

      const fileKey = await sender.generateFileKey();
      const binding = { contextId: 'delivery-1', fileId: 'file-1', recipientKeyId: bob.keys.encryption.keyId };
      const wrapped = await sender.wrapFileKey({ fileKey: fileKey.handle, recipientPublicKey: bob.keys.encryption.publicKey, binding });

      const plaintext = new Uint8Array(1_200_000).map((_, i) => i % 251);
      const { ciphertext } = await sender.encryptStream({ fileKey: fileKey.handle, plaintext: bytesToStream(plaintext) });
      const ciphertextBytes = await collectStream(ciphertext);
      const { headerSha256 } = await sender.headerSha256({ header: ciphertextBytes.slice(0, 49) });
      const signed = await sender.signManifest({
        signingKey: alice.keys.signing.handle,
        manifest: {
          version: 1,
          contextId: 'delivery-1',
          senderUserId: 'alice',
          signerKeyId: alice.keys.signing.keyId,
          createdAt: '2026-01-01T00:00:00.000Z',
          files: [{ fileId: 'file-1', name: 'x.bin', size: plaintext.length, headerSha256 }],
        },
      });

      const manifest = await recipient.verifyManifest({ signerPublicKey: alice.keys.signing.publicKey, signed });
      const opened = await recipient.unwrapFileKey({ privateKey: bob.keys.encryption.handle, wrapped, binding });
      const file = manifest.files[0]!;
      const { plaintext: decrypted } = await recipient.decryptStream({
        fileKey: opened.handle,
        ciphertext: bytesToStream(ciphertextBytes),
        plaintextLength: file.size,
        expectedHeaderSha256: file.headerSha256,
      });
      const back = await collectStream(decrypted);
      expect(back.length).toBe(plaintext.length);
      expect(back.every((byte, i) => byte === plaintext[i])).toBe(true);

      const range = await recipient.decryptRange({
        fileKey: opened.handle,
        header: ciphertextBytes.slice(0, 49),
        plaintextLength: plaintext.length,
        start: 524_288 - 3,
        end: 524_288 + 3,
        ciphertext: ciphertextBytes.slice(49, 49 + 2 * (524_288 + 16)),
      });
      expect([...range.plaintext]).toEqual([...plaintext.subarray(524_288 - 3, 524_288 + 3)]);
    });

    it('errors keep their class and code; handles die on lock', async () => {
      const api: CryptoApi = make();
      const { blob } = await api.setupSecuPass({ userId, passphrase: 'right' });
      const failure = await api.unlockSecuPass({ userId, blob, passphrase: 'wrong' }).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(WrongPassphraseError);
      expect((failure as CryptoError).code).toBe('secupass-wrong-passphrase');

      const { keys } = await api.unlockSecuPass({ userId, blob, passphrase: 'right' });
      const key = await api.generateFileKey();
      await expect(
        api.unwrapFileKey({ privateKey: keys.signing.handle, wrapped: { version: 1, recipientKeyId: 'x', enc: 'AA', ciphertext: 'AA' }, binding: { contextId: 'c', fileId: 'f', recipientKeyId: 'x' } }),
      ).rejects.toMatchObject({ code: 'key-handle-kind' });
      await api.lock();
      await expect(api.wrapFileKey({ fileKey: key.handle, recipientPublicKey: keys.encryption.publicKey, binding: { contextId: 'c', fileId: 'f', recipientKeyId: 'x' } })).rejects.toMatchObject({
        code: 'key-handle-unknown',
      });
    });

    it('a stream error reaches the reader with its code', async () => {
      const api: CryptoApi = make();
      const key = await api.generateFileKey();
      const { ciphertext } = await api.encryptStream({ fileKey: key.handle, plaintext: bytesToStream(new Uint8Array(100)), recordSize: 64 });
      const bytes = await collectStream(ciphertext);
      bytes[60] = (bytes[60] ?? 0) ^ 1;
      const { plaintext } = await api.decryptStream({ fileKey: key.handle, ciphertext: bytesToStream(bytes) });
      await expect(collectStream(plaintext)).rejects.toMatchObject({ code: 'stream-record-corrupted' });
    });

    it('upload parts: runs of records by handle (the reply buffer is transferred) decrypt as one stream', async () => {
      const api: CryptoApi = make();
      const key = await api.generateFileKey();
      const plaintext = new Uint8Array(9 * 64 + 5).map((_, i) => i & 0xff);
      const head = await api.encryptRecordRun({ fileKey: key.handle, recordSize: 64, firstRecord: 0, plaintext: plaintext.subarray(0, 8 * 64), final: false });
      const tail = await api.encryptRecordRun({ fileKey: key.handle, recordSize: 64, firstRecord: 8, plaintext: plaintext.subarray(8 * 64), final: true });
      expect(head.ciphertext).toBeInstanceOf(Uint8Array);
      const { headerSha256 } = await api.uploadStreamHeader({ fileKey: key.handle, recordSize: 64 });
      const whole = new Uint8Array([...head.ciphertext, ...tail.ciphertext]);
      const { plaintext: out } = await api.decryptStream({ fileKey: key.handle, ciphertext: bytesToStream(whole), plaintextLength: plaintext.length, expectedHeaderSha256: headerSha256 });
      expect(await collectStream(out)).toEqual(plaintext);
    });
  });
}
