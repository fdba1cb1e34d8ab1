import { describe, expect, it } from 'vitest';
import { concatByteList, toBase64Url } from './bytes';
import { CryptoError, KeyHandleUnknownError } from './errors';
import { createCryptoService } from './service';
import { encryptBytes } from './stream-encoder';
import { STREAM_HEADER_BYTES, ciphertextLength, decodeStreamHeader } from './stream-format';
import { derivedEncryptionContext, derivedStreamHeader } from './stream-parts';
import { sha256 } from './subtle';
import { referenceCommitment } from './test-helpers/content-commitment';
import { UploadSealer } from './upload-sealer';

const RECORD = 64;
const fileKey = new Uint8Array(32).map((_, i) => 90 + i);

function pattern(length: number): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(length);
  for (let i = 0; i < length; i++) out[i] = (i * 13 + 5) & 0xff;
  return out;
}

/** The whole upload stream as the stream encoder writes it with the derived header. */
async function reference(plaintext: Uint8Array): Promise<Uint8Array> {
  const header = decodeStreamHeader(await derivedStreamHeader(fileKey, RECORD));
  return encryptBytes(plaintext, { fileKey, recordSize: RECORD, salt: header.salt, noncePrefix: header.noncePrefix });
}

/** Part bounds of the room layout (every part `partSize` bytes, records not aligned). */
function parts(size: number, partSize: number): { start: number; end: number }[] {
  const out = [];
  for (let start = 0; start < size; start += partSize) out.push({ start, end: Math.min(size, start + partSize) });
  return out;
}

/** A part's bytes, in a buffer of their own (the Worker transfers it). */
function bytesOf(part: Uint8Array | { ciphertext: Uint8Array }): Uint8Array {
  const bytes = part instanceof Uint8Array ? part : part.ciphertext;
  expect(bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength).toBe(true);
  return bytes;
}

describe('UploadSealer (an upload read, hashed and sealed part by part where the key lives)', () => {
  it('parts on any layout, asked for all at once, concatenate to the stream encoder output; the commitment covers every record', async () => {
    const context = await derivedEncryptionContext(fileKey, RECORD);
    for (const size of [0, 1, RECORD, 8 * RECORD, 8 * RECORD + 1, 20 * RECORD + 5]) {
      const plaintext = pattern(size);
      const expected = await reference(plaintext);
      // 150: records straddle parts; 8 × (64 + 16) = 640 with the header on part 0: the delivery layout.
      for (const layout of [parts(ciphertextLength(size, RECORD), 150), parts(ciphertextLength(size, RECORD), 640 + STREAM_HEADER_BYTES)]) {
        const sealer = new UploadSealer(context, new Blob([plaintext]), { commitContent: true });
        expect(sealer.size).toBe(expected.length);
        const sealed = await Promise.all(layout.map((part) => sealer.sealPart(part.start, part.end)));
        expect(concatByteList(sealed.map(bytesOf)), `size ${size}`).toEqual(expected);
        expect(await sealer.contentCommitment()).toBe(toBase64Url(await referenceCommitment(plaintext, context.headerBytes, RECORD)));
      }
    }
  });

  it('parts asked for in reverse order give the same bytes and hash (each record hashed at its index)', async () => {
    const context = await derivedEncryptionContext(fileKey, RECORD);
    const plaintext = pattern(13 * RECORD + 7);
    const sealer = new UploadSealer(context, new Blob([plaintext]), { commitContent: true });
    const layout = parts(sealer.size, 200);
    const sealed = await Promise.all([...layout].reverse().map((part) => sealer.sealPart(part.start, part.end)));
    expect(concatByteList(sealed.reverse().map(bytesOf))).toEqual(await reference(plaintext));
    expect(await sealer.contentCommitment()).toBe(toBase64Url(await referenceCommitment(plaintext, context.headerBytes, RECORD)));
  });

  it('never seals a record twice: a part asked for again is refused, and the hash needs every record', async () => {
    const context = await derivedEncryptionContext(fileKey, RECORD);
    const sealer = new UploadSealer(context, new Blob([pattern(4 * RECORD)]), { commitContent: true });
    const layout = parts(sealer.size, 100);
    await sealer.sealPart(layout[0]!.start, layout[0]!.end);
    await expect(sealer.contentCommitment()).rejects.toBeInstanceOf(CryptoError);
    await sealer.sealPart(layout[1]!.start, layout[1]!.end);
    await expect(sealer.sealPart(layout[0]!.start, layout[0]!.end)).rejects.toMatchObject({ code: 'stream-range-invalid' });
    await expect(sealer.sealPart(0, sealer.size + 1)).rejects.toMatchObject({ code: 'stream-range-invalid' });
  });

  it('a read that fails fails every part waiting behind it (nothing hangs) and the hash', async () => {
    const context = await derivedEncryptionContext(fileKey, RECORD);
    const plaintext = new Blob([pattern(10 * RECORD)]);
    // A file that turned out shorter from byte 3 × RECORD on.
    const source = { size: plaintext.size, slice: (start: number, end: number) => plaintext.slice(start, start >= 3 * RECORD ? start : end) } as unknown as Blob;
    const sealer = new UploadSealer(context, source, { commitContent: true });
    const layout = parts(sealer.size, 160);
    const results = await Promise.allSettled(layout.map((part) => sealer.sealPart(part.start, part.end)));
    // Settled, all of them (parts before the failure may still fail: the upload is over anyway).
    expect(results).toHaveLength(layout.length);
    expect(results.at(-1)).toMatchObject({ status: 'rejected', reason: { code: 'stream-range-invalid' } });
    await expect(sealer.contentCommitment()).rejects.toBeInstanceOf(CryptoError);
  });

  it('the service: openUpload by file-key handle, parts and hash; released with its handle or its file key', async () => {
    const service = createCryptoService();
    const { handle } = await service.generateFileKey();
    const plaintext = pattern(11 * RECORD + 9);
    const opened = await service.openUpload({ fileKey: handle, recordSize: RECORD, source: new Blob([plaintext]), commitContent: true });
    expect(opened.size).toBe(ciphertextLength(plaintext.length, RECORD));
    expect(opened.headerSha256).toBe((await service.uploadStreamHeader({ fileKey: handle, recordSize: RECORD })).headerSha256);
    const sealed = [];
    for (const part of parts(opened.size, 300)) sealed.push(await service.sealUploadPart({ upload: opened.upload, ...part }));
    const joined = concatByteList(sealed.map(bytesOf));
    expect(toBase64Url(await sha256(joined.subarray(0, STREAM_HEADER_BYTES)))).toBe(opened.headerSha256);
    expect((await service.uploadContentCommitment({ upload: opened.upload })).contentCommitment).toBe(toBase64Url(await referenceCommitment(plaintext, joined.subarray(0, STREAM_HEADER_BYTES), RECORD)));
    // The same key gives the same parts (a resume compares them with the server's).
    const again = await service.openUpload({ fileKey: handle, recordSize: RECORD, source: new Blob([plaintext]) });
    expect(bytesOf(await service.sealUploadPart({ upload: again.upload, start: 0, end: 300 }))).toEqual(joined.subarray(0, 300));
    await service.releaseHandle({ handle: opened.upload });
    await expect(service.sealUploadPart({ upload: opened.upload, start: 0, end: 10 })).rejects.toBeInstanceOf(KeyHandleUnknownError);
    await service.releaseHandle({ handle });
    await expect(service.sealUploadPart({ upload: again.upload, start: 300, end: 310 })).rejects.toBeInstanceOf(KeyHandleUnknownError);
  });
});
