import { describe, expect, it } from 'vitest';
import { concatByteList, fromBase64Url, fromHex, toBase64Url } from './bytes';
import { contentCommitment, recordPlaintextHash } from './content-commitment';
import { deriveRoomKeys, generateRoomKey, openRoomFileMetadata, sealRoomFileMetadata, signedContentOf, type RoomFileMetadata } from './room';
import { CryptoService } from './service';
import { StreamDecoder, createDecryptStream } from './stream-decoder';
import { bytesToStream, collectStream } from './stream-encoder';
import { derivedEncryptionContext, sealRecordRun } from './stream-parts';
import { sha256, subtle } from './subtle';
import { referenceCommitment } from './test-helpers/content-commitment';

const RECORD = 64;
const fileKey = new Uint8Array(32).map((_, i) => 17 + i);

function pattern(length: number, seed = 5): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(length);
  for (let i = 0; i < length; i++) out[i] = (i * 13 + seed) & 0xff;
  return out;
}

/** The upload stream of `plaintext` (derived header) and its commitment as the uploader computes it. */
async function upload(plaintext: Uint8Array) {
  const context = await derivedEncryptionContext(fileKey, RECORD);
  const ciphertext = await sealRecordRun(context, { firstRecord: 0, plaintext, final: true });
  return { context, ciphertext, commitment: await referenceCommitment(plaintext, context.headerBytes, RECORD) };
}

/** Records sealed under the genuine key by someone who unwrapped it (a member): valid AES-GCM, other content. */
async function resealed(records: Uint8Array[]): Promise<Uint8Array> {
  const context = await derivedEncryptionContext(fileKey, RECORD);
  return sealRecordRun(context, { firstRecord: 0, plaintext: concatByteList(records), final: true });
}

function read(ciphertext: Uint8Array, commitment: Uint8Array, plaintextLength?: number): Promise<Uint8Array> {
  const length = plaintextLength === undefined ? {} : { plaintextLength };
  return collectStream(bytesToStream(ciphertext).pipeThrough(createDecryptStream({ fileKey, headerDerivedFromKey: true, expectedContentCommitment: commitment, ...length })));
}

describe('content commitment (README section 7, metadata format 2)', () => {
  it('known answers: SHA-256(label ‖ SHA-256(header) ‖ per-record SHA-256), computed independently (Python hashlib)', async () => {
    const header = new Uint8Array(49).map((_, i) => (i * 7 + 3) & 0xff);
    const vectors: [number, string, string[]][] = [
      [0, 'FMAj_xAojHOI90lvkBFs5b3AhJ3FGKLIDmaD95KcMUU', ['e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855']],
      [1, 'kKsJIQW0gdWMxL7ipcWrc_Ykq26A0MVnnao3GVFtaAY', ['e77b9a9ae9e30b0dbdb6f510a264ef9de781501d7b6b92ae89eb059c5ab743db']],
      [64, 'jIig46w5ezYquznHahafKS9Z0zfdzCOX0AYV174Q5tM', ['44aee5fa258a25ab9eeebaa630ea0ea92b017efb95fbce6f91c9c181e4d8ebe2']],
      [150, '1XFz-UyVIyABcqPm7mnf9fVkrN_FKP5l2oHwbudg6Dg', [
        '44aee5fa258a25ab9eeebaa630ea0ea92b017efb95fbce6f91c9c181e4d8ebe2',
        'e7ea5e11246bd9c3e5ef4c2c563876de2196f318a7e71d49c9026abef02eecbc',
        'd975a6b77ce28872ba352f0325e03c91cf705eb70d443013347687d8d8cb7c1b',
      ]],
    ];
    for (const [size, commitment, recordHashes] of vectors) {
      const plaintext = pattern(size);
      const hashes = await Promise.all(recordHashes.map((_, i) => recordPlaintextHash(plaintext.subarray(i * RECORD, Math.min(size, (i + 1) * RECORD)))));
      expect(hashes.map((hash) => Buffer.from(hash).toString('hex')), `size ${size}`).toEqual(recordHashes);
      expect(toBase64Url(await contentCommitment(await sha256(header), hashes.map((hash) => fromHex(Buffer.from(hash).toString('hex')))))).toBe(commitment);
      expect(toBase64Url(await referenceCommitment(plaintext, header, RECORD))).toBe(commitment);
    }
    await expect(contentCommitment(await sha256(header), [])).rejects.toBeInstanceOf(TypeError);
  });

  it('the reader accepts the genuine stream at every size, with and without the signed length', async () => {
    for (const size of [0, 1, RECORD - 1, RECORD, RECORD + 1, 5 * RECORD, 5 * RECORD + 3]) {
      const plaintext = pattern(size);
      const { ciphertext, commitment } = await upload(plaintext);
      expect(await read(ciphertext, commitment, size), `size ${size}`).toEqual(plaintext);
      expect(await read(ciphertext, commitment), `size ${size}`).toEqual(plaintext);
    }
  });

  it('mutations under the genuine key → stream-content-mismatch: a changed record, records reordered, the last record dropped, another header', async () => {
    const plaintext = pattern(5 * RECORD + 3);
    const records = [0, 1, 2, 3, 4, 5].map((i) => plaintext.subarray(i * RECORD, Math.min(plaintext.length, (i + 1) * RECORD)));
    const { context, ciphertext, commitment } = await upload(plaintext);
    const changed = records.map((record, i) => (i === 2 ? pattern(RECORD, 99) : record));
    await expect(read(await resealed(changed), commitment, plaintext.length)).rejects.toMatchObject({ code: 'stream-content-mismatch' });
    const reordered = [records[1]!, records[0]!, ...records.slice(2)];
    await expect(read(await resealed(reordered), commitment, plaintext.length)).rejects.toMatchObject({ code: 'stream-content-mismatch' });
    // Without the last record (the signed size would catch it as truncation; the commitment does on its own).
    await expect(read(await resealed(records.slice(0, -1)), commitment)).rejects.toMatchObject({ code: 'stream-content-mismatch' });
    // The signed value names the record list in order and whole, and the header.
    const hashes = await Promise.all(records.map((record) => recordPlaintextHash(record)));
    expect(toBase64Url(await contentCommitment(context.headerHash, hashes))).toBe(toBase64Url(commitment));
    for (const wrong of [
      [hashes[1]!, hashes[0]!, ...hashes.slice(2)],
      hashes.slice(0, -1),
      [...hashes, hashes.at(-1)!],
    ]) {
      await expect(read(ciphertext, await contentCommitment(context.headerHash, wrong), plaintext.length)).rejects.toMatchObject({ code: 'stream-content-mismatch' });
    }
    await expect(read(ciphertext, await contentCommitment(await sha256(new Uint8Array(49)), hashes), plaintext.length)).rejects.toMatchObject({ code: 'stream-content-mismatch' });
    // A whole-plaintext SHA-256 (format 1's value) is not this format's commitment.
    await expect(read(ciphertext, await sha256(plaintext), plaintext.length)).rejects.toMatchObject({ code: 'stream-content-mismatch' });
  });

  it('a mismatch fails before the final record is handed over: the output never reaches the full size', async () => {
    const plaintext = pattern(7 * RECORD + 10);
    const { commitment } = await upload(plaintext);
    const forged = await resealed([pattern(7 * RECORD + 10, 1)]);
    const decoder = new StreamDecoder({ fileKey, plaintextLength: plaintext.length, headerDerivedFromKey: true, expectedContentCommitment: commitment });
    let emitted = 0;
    const emit = (bytes: Uint8Array) => (emitted += bytes.length);
    await expect((async () => {
      await decoder.push(forged, emit);
      await decoder.finish(emit);
    })()).rejects.toMatchObject({ code: 'stream-content-mismatch' });
    expect(emitted).toBeLessThanOrEqual(7 * RECORD);
  });

  it('metadata: format 2 carries exactly contentCommitment, format 1 exactly contentSha256; any other format is refused', async () => {
    const keys = await deriveRoomKeys(generateRoomKey());
    const signing = await subtle().generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign', 'verify']);
    const ref = { roomId: 'room-1', fileId: 'file-1', version: 1 };
    const base = { ...ref, name: 'a.bin', size: 3, headerSha256: toBase64Url(new Uint8Array(32)), uploaderUserId: 'u', uploaderEmail: 'u@example.test', signerKeyId: 'k', createdAt: '2026-11-29T00:00:00.000Z' };
    const commitment = toBase64Url(new Uint8Array(32).fill(7));
    const open = async (metadata: unknown) => openRoomFileMetadata(keys, ref, await sealRoomFileMetadata(keys, metadata as RoomFileMetadata, signing.privateKey));
    const v2 = await open({ ...base, format: 2, contentCommitment: commitment });
    expect(signedContentOf(v2.metadata)).toEqual({ expectedContentCommitment: commitment });
    const v1 = await open({ ...base, format: 1, contentSha256: 'c' });
    expect(signedContentOf(v1.metadata)).toEqual({ expectedContentSha256: 'c' });
    for (const bad of [
      { ...base, format: 2, contentSha256: commitment },
      { ...base, format: 2, contentCommitment: commitment, contentSha256: commitment },
      { ...base, format: 2, contentCommitment: 'short' },
      { ...base, format: 1, contentCommitment: commitment },
      { ...base, format: 3, contentCommitment: commitment },
    ]) {
      await expect(open(bad), JSON.stringify(bad)).rejects.toMatchObject({ code: 'room-metadata-invalid' });
    }
  });

  it('the CryptoApi: a format-2 upload signs the commitment, a room file key reads whole only against it (or a format-1 hash)', async () => {
    const service = new CryptoService();
    const alice = await service.setupSecuPass({ userId: 'alice', passphrase: 'alice passphrase' });
    const room = await service.generateRoomKey();
    const file = { roomId: 'room-2', fileId: 'f1', version: 1 };
    const { handle } = await service.generateFileKey();
    const plaintext = pattern(3 * 65_536 + 11);
    const opened = await service.openUpload({ fileKey: handle, recordSize: 65_536, source: new Blob([plaintext]), commitContent: true });
    const { ciphertext } = await service.sealUploadPart({ upload: opened.upload, start: 0, end: opened.size });
    const { contentCommitment: signedCommitment } = await service.uploadContentCommitment({ upload: opened.upload });
    const { wrapped } = await service.wrapRoomFileKey({ roomKey: room.handle, fileKey: handle, file });
    const { sealed } = await service.sealRoomFileMetadata({
      roomKey: room.handle, signingKey: alice.keys.signing.handle,
      metadata: { ...file, name: 'x.bin', size: plaintext.length, headerSha256: opened.headerSha256, contentCommitment: signedCommitment, uploaderUserId: 'alice', uploaderEmail: 'alice@example.test', createdAt: '2026-11-29T00:00:00.000Z' },
    });
    const { metadata } = await service.openRoomFileMetadata({ roomKey: room.handle, file, sealed });
    expect(metadata.format).toBe(2);
    expect(metadata.contentCommitment).toBe(signedCommitment);
    const reader = (await service.unwrapRoomFileKey({ roomKey: room.handle, file, wrapped })).handle;
    const whole = (content: object) => service.decryptStream({ fileKey: reader, ciphertext: bytesToStream(ciphertext), plaintextLength: plaintext.length, expectedHeaderSha256: opened.headerSha256, ...content });
    expect(await collectStream((await whole(signedContentOf(metadata))).plaintext)).toEqual(plaintext);
    await expect(whole({})).rejects.toMatchObject({ code: 'key-handle-kind' });
    const otherCommitment = toBase64Url(fromBase64Url(signedCommitment).map((byte, i) => (i === 0 ? byte ^ 1 : byte)));
    await expect(collectStream((await whole({ expectedContentCommitment: otherCommitment })).plaintext)).rejects.toMatchObject({ code: 'stream-content-mismatch' });
  }, 30_000); // two SecuPass set-ups (Argon2id): seconds on a busy machine
});
