// The part bodies the uploads PUT (UploadSealer.sealPartBody: records copied from WebCrypto's output
// straight into a reused part buffer, hashed there, copied once into a Blob) against the frozen
// stream vectors and against `sealPart`, the part assembled in a buffer of its own as before.
import { describe, expect, it } from 'vitest';
import kat from '../../tests/fixtures/crypto/kat.json';
import { concatByteList, fromHex, toHex } from './bytes';
import { createCryptoService } from './service';
import { STREAM_HEADER_BYTES, STREAM_TAG_BYTES } from './stream-format';
import { createEncryptionContext } from './stream-records';
import { sha256, sha256Hex } from './subtle';
import { katPlaintext, type StreamVector } from './test-helpers/known-answers';
import { UploadSealer } from './upload-sealer';

type Layout = { start: number; end: number }[];

/** Every part `partSize` bytes, the first `leading` (the delivery layout: header + 8 records, then 8 records). */
function layout(size: number, partSize: number, leading = partSize): Layout {
  const out: Layout = [];
  for (let start = 0, end = Math.min(size, leading); start < size; start = end, end = Math.min(size, end + partSize)) out.push({ start, end });
  return out;
}

async function sealerOf(vector: StreamVector): Promise<UploadSealer> {
  const context = await createEncryptionContext(fromHex(vector.fileKey), { recordSize: vector.recordSize, salt: fromHex(vector.salt), noncePrefix: fromHex(vector.noncePrefix) });
  expect(toHex(context.headerBytes)).toBe(toHex(fromHex(vector.header)));
  return new UploadSealer(context, new Blob([katPlaintext(vector.plaintextLength) as Uint8Array<ArrayBuffer>]), { commitContent: true });
}

const bytesOfBody = async (body: Blob) => new Uint8Array(await body.arrayBuffer());

describe('UploadSealer.sealPartBody (the part built in a reused buffer, hashed, one Blob)', () => {
  const vectors = (kat as { stream: StreamVector[] }).stream;
  for (const vector of vectors) {
    it(`known answer "${vector.name}": every layout gives the vector's ciphertext and the same parts as sealPart`, async () => {
      const size = (await sealerOf(vector)).size;
      const stride = vector.recordSize + STREAM_TAG_BYTES;
      const big = vector.recordSize > 64;
      // Delivery (header + 8 records, then 8), record-sized parts, and parts that cut records anywhere.
      const layouts = [layout(size, 8 * stride, STREAM_HEADER_BYTES + 8 * stride), ...(big ? [] : [layout(size, stride)]), layout(size, big ? 300_001 : 150)];
      for (const parts of layouts) {
        // Sequentially (each part reuses the buffer of the one before) and all at once (buffers side by side).
        for (const together of [false, true]) {
          const sealer = await sealerOf(vector);
          const bodies = together
            ? await Promise.all(parts.map((part) => sealer.sealPartBody(part.start, part.end)))
            : await parts.reduce<Promise<Awaited<ReturnType<UploadSealer['sealPartBody']>>[]>>(async (done, part) => [...(await done), await sealer.sealPartBody(part.start, part.end)], Promise.resolve([]));
          // Read only now: a Blob that shared its bytes with the reused buffer would show a later part here.
          const bytes = await Promise.all(bodies.map((body) => bytesOfBody(body.body)));
          const assembled = await sealerOf(vector);
          for (const [i, part] of parts.entries()) {
            expect(bytes[i]!.length).toBe(part.end - part.start);
            expect(bodies[i]!.size).toBe(part.end - part.start);
            expect(bodies[i]!.sha256).toBe(await sha256Hex(bytes[i]!));
            expect(toHex(bytes[i]!), `part ${i}`).toBe(toHex(await assembled.sealPart(part.start, part.end)));
          }
          const joined = concatByteList(bytes);
          if (vector.ciphertext) expect(toHex(joined)).toBe(vector.ciphertext);
          expect(toHex(await sha256(joined))).toBe(vector.ciphertextSha256);
          expect(await sealer.contentCommitment()).toBe(await assembled.contentCommitment());
        }
      }
    }, 60_000);
  }

  it('refuses a range outside the stream and a part asked for twice, as sealPart does', async () => {
    const sealer = await sealerOf(vectors.find((v) => v.plaintextLength === 200)!);
    await expect(sealer.sealPartBody(0, sealer.size + 1)).rejects.toMatchObject({ code: 'stream-range-invalid' });
    await expect(sealer.sealPartBody(10, 10)).rejects.toMatchObject({ code: 'stream-range-invalid' });
    await sealer.sealPartBody(0, 150);
    await expect(sealer.sealPartBody(100, 160)).rejects.toMatchObject({ code: 'stream-range-invalid' });
  });

  it('the service hands the Blob, its size and hash; the bytes equal sealUploadPart of the same key', async () => {
    const service = createCryptoService();
    const { handle } = await service.generateFileKey();
    const source = new Blob([katPlaintext(5000) as Uint8Array<ArrayBuffer>]);
    const a = await service.openUpload({ fileKey: handle, recordSize: 64, source });
    const b = await service.openUpload({ fileKey: handle, recordSize: 64, source });
    for (const part of layout(a.size, 700, STREAM_HEADER_BYTES + 8 * 80)) {
      const body = await service.sealUploadPartBody({ upload: a.upload, ...part });
      const { ciphertext } = await service.sealUploadPart({ upload: b.upload, ...part });
      expect(toHex(await bytesOfBody(body.body))).toBe(toHex(ciphertext));
      expect(body).toMatchObject({ size: ciphertext.length, sha256: await sha256Hex(ciphertext) });
    }
  });
});
