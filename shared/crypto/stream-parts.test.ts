import { describe, expect, it } from 'vitest';
import { concatBytes, toBase64Url } from './bytes';
import { CryptoError } from './errors';
import { createCryptoService } from './service';
import { createDecryptStream } from './stream-decoder';
import { bytesToStream, collectStream, encryptBytes } from './stream-encoder';
import { STREAM_HEADER_BYTES, ciphertextLength, decodeStreamHeader } from './stream-format';
import { derivedEncryptionContext, derivedStreamHeader, sealRecordRun } from './stream-parts';
import { sha256 } from './subtle';

const RECORD = 64;
const RECORDS_PER_RUN = 8;
const fileKey = new Uint8Array(32).map((_, i) => 200 - i);
const otherKey = new Uint8Array(32).map((_, i) => i);

function pattern(length: number): Uint8Array {
  const out = new Uint8Array(length);
  for (let i = 0; i < length; i++) out[i] = (i * 31 + 7) & 0xff;
  return out;
}

/** The file cut into runs of 8 records, as the upload parts are. */
async function encryptInRuns(plaintext: Uint8Array, key = fileKey): Promise<Uint8Array[]> {
  const context = await derivedEncryptionContext(key, RECORD);
  const runs: Uint8Array[] = [];
  const runBytes = RECORD * RECORDS_PER_RUN;
  for (let first = 0; ; first += RECORDS_PER_RUN) {
    const start = first * RECORD;
    const end = Math.min(plaintext.length, start + runBytes);
    runs.push(await sealRecordRun(context, { firstRecord: first, plaintext: plaintext.subarray(start, end), final: end === plaintext.length }));
    if (end === plaintext.length) return runs;
  }
}

describe('upload parts (runs of records under a derived header)', () => {
  it('runs concatenated are exactly the stream encoder output with the same header, and decrypt with the length and header hash checked', async () => {
    for (const size of [0, 1, RECORD - 1, RECORD, 8 * RECORD, 8 * RECORD + 1, 20 * RECORD + 5, 24 * RECORD]) {
      const plaintext = pattern(size);
      const runs = await encryptInRuns(plaintext);
      const joined = concatBytes(...runs);
      expect(joined.length, `size ${size}`).toBe(ciphertextLength(size, RECORD));
      const header = decodeStreamHeader(await derivedStreamHeader(fileKey, RECORD));
      const reference = await encryptBytes(plaintext, { fileKey, recordSize: RECORD, salt: header.salt, noncePrefix: header.noncePrefix });
      expect(joined, `size ${size}`).toEqual(reference);
      const decrypted = await collectStream(
        bytesToStream(joined, 100).pipeThrough(createDecryptStream({ fileKey, plaintextLength: size, expectedHeaderHash: await sha256(joined.subarray(0, STREAM_HEADER_BYTES)) })),
      );
      expect(decrypted, `size ${size}`).toEqual(plaintext);
    }
  });

  it('is deterministic per key (a resumed part is byte-identical) and differs between keys', async () => {
    const plaintext = pattern(17 * RECORD + 3);
    const once = await encryptInRuns(plaintext);
    const again = await encryptInRuns(plaintext);
    expect(again).toEqual(once);
    const other = await encryptInRuns(plaintext, otherKey);
    expect(other[0]!.subarray(0, STREAM_HEADER_BYTES)).not.toEqual(once[0]!.subarray(0, STREAM_HEADER_BYTES));
    expect(other[1]).not.toEqual(once[1]);
  });

  it('refuses runs that are not whole records before the final one, and an empty record other than the empty file', async () => {
    const context = await derivedEncryptionContext(fileKey, RECORD);
    await expect(sealRecordRun(context, { firstRecord: 0, plaintext: pattern(RECORD + 1), final: false })).rejects.toMatchObject({ code: 'stream-range-invalid' });
    await expect(sealRecordRun(context, { firstRecord: 8, plaintext: new Uint8Array(0), final: false })).rejects.toBeInstanceOf(CryptoError);
    await expect(sealRecordRun(context, { firstRecord: 8, plaintext: new Uint8Array(0), final: true })).rejects.toBeInstanceOf(CryptoError);
  });

  it('the service: header hash and runs by key handle, the same bytes after the key was unwrapped in a new service (a reloaded Worker)', async () => {
    const first = createCryptoService();
    const setup = await first.setupSecuPass({ userId: 'u1', passphrase: 'Parts-Test-SecuPass-91' });
    const { handle } = await first.generateFileKey();
    const binding = { contextId: 'delivery-1', fileId: 'file-1', recipientKeyId: setup.keys.encryption.keyId };
    const wrapped = await first.wrapFileKey({ fileKey: handle, recipientPublicKey: setup.keys.encryption.publicKey, binding });
    const plaintext = pattern(9 * RECORD + 2);
    const { header, headerSha256 } = await first.uploadStreamHeader({ fileKey: handle, recordSize: RECORD });
    expect(headerSha256).toBe(toBase64Url(await sha256(header)));
    const part1 = await first.encryptRecordRun({ fileKey: handle, recordSize: RECORD, firstRecord: 8, plaintext: plaintext.subarray(8 * RECORD), final: true });

    const second = createCryptoService();
    const unlocked = await second.unlockSecuPass({ userId: 'u1', blob: setup.blob, passphrase: 'Parts-Test-SecuPass-91' });
    const { handle: again } = await second.unwrapFileKey({ privateKey: unlocked.keys.encryption.handle, wrapped, binding });
    expect((await second.uploadStreamHeader({ fileKey: again, recordSize: RECORD })).headerSha256).toBe(headerSha256);
    const rerun = await second.encryptRecordRun({ fileKey: again, recordSize: RECORD, firstRecord: 8, plaintext: plaintext.subarray(8 * RECORD), final: true });
    expect(rerun.ciphertext).toEqual(part1.ciphertext);

    await second.releaseHandle({ handle: again });
    await expect(second.encryptRecordRun({ fileKey: again, recordSize: RECORD, firstRecord: 0, plaintext, final: true })).rejects.toBeInstanceOf(CryptoError);
  }, 30_000);
});
