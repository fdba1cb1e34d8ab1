import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bytesEqual, concatBytes, toHex } from './bytes';
import { CryptoError } from './errors';
import {
  DEFAULT_RECORD_SIZE,
  STREAM_HEADER_BYTES,
  STREAM_TAG_BYTES,
  ciphertextLength,
  ciphertextRangeForPlaintext,
  recordCount,
  resumePoint,
} from './stream-format';
import { createDecryptStream } from './stream-decoder';
import { bytesToStream, collectStream, encryptBytes } from './stream-encoder';
import { createEncryptionContext, sealRecord } from './stream-records';
import { decryptPlaintextRange, decryptRecordRange } from './stream-random-access';
import { sha256 } from './subtle';
import { MUTATIONS, boundarySizes, expectedErrorCode, mutate, mutationApplies, splitStream } from './test-helpers/stream-mutations';

const SMALL_RECORD = 64;
const fileKey = new Uint8Array(32).map((_, i) => i + 1);

function pattern(length: number, seed = 7): Uint8Array {
  const out = new Uint8Array(length);
  let x = seed;
  for (let i = 0; i < length; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    out[i] = x >>> 24;
  }
  return out;
}

async function decrypt(ciphertext: Uint8Array, options: { plaintextLength?: number; expectedHeaderHash?: Uint8Array; chunkSize?: number } = {}) {
  const { chunkSize, ...rest } = options;
  return collectStream(bytesToStream(ciphertext, chunkSize).pipeThrough(createDecryptStream({ fileKey, ...rest })));
}

async function decryptError(ciphertext: Uint8Array, options: Parameters<typeof decrypt>[1] = {}): Promise<CryptoError> {
  try {
    await decrypt(ciphertext, options);
  } catch (error) {
    if (error instanceof CryptoError) return error;
    throw error;
  }
  throw new Error('The decoder accepted a mutated stream');
}

describe('streaming format: round trip and layout', () => {
  for (const recordSize of [SMALL_RECORD, DEFAULT_RECORD_SIZE]) {
    for (const size of boundarySizes(recordSize, 2)) {
      it(`round-trips ${size} bytes with ${recordSize}-byte records, with the computed length`, async () => {
        const plaintext = pattern(size);
        const ciphertext = await encryptBytes(plaintext, { fileKey, recordSize });
        expect(ciphertext.length).toBe(ciphertextLength(size, recordSize));
        // NB: bytesEqual, because deep equality of MiB-sized arrays is very slow in Vitest.
        expect(bytesEqual(await decrypt(ciphertext), plaintext)).toBe(true);
        expect(bytesEqual(await decrypt(ciphertext, { plaintextLength: size }), plaintext)).toBe(true);
      }, 30_000);
    }
  }

  it('uses a fresh salt and nonce prefix per stream', async () => {
    const a = await encryptBytes(pattern(10), { fileKey, recordSize: SMALL_RECORD });
    const b = await encryptBytes(pattern(10), { fileKey, recordSize: SMALL_RECORD });
    expect(toHex(a.subarray(10, STREAM_HEADER_BYTES))).not.toBe(toHex(b.subarray(10, STREAM_HEADER_BYTES)));
  });

  it('property: any plaintext, record size and chunking round-trips', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ maxLength: 700 }),
        fc.integer({ min: 16, max: 200 }),
        fc.integer({ min: 1, max: 300 }),
        fc.integer({ min: 1, max: 300 }),
        async (plaintext, recordSize, inChunk, outChunk) => {
          const ciphertext = await collectStream(
            bytesToStream(plaintext, inChunk).pipeThrough((await import('./stream-encoder')).createEncryptStream({ fileKey, recordSize })),
          );
          expect(ciphertext.length).toBe(ciphertextLength(plaintext.length, recordSize));
          expect(await decrypt(ciphertext, { chunkSize: outChunk })).toEqual(plaintext);
          expect(await decrypt(ciphertext, { chunkSize: outChunk, plaintextLength: plaintext.length })).toEqual(plaintext);
        },
      ),
      { numRuns: 60 },
    );
  }, 60_000);

  it('property: StreamEncoder pushed directly writes exactly what createEncryptStream writes', async () => {
    const { StreamEncoder, createEncryptStream } = await import('./stream-encoder');
    const fixed = { salt: new Uint8Array(32).fill(3), noncePrefix: new Uint8Array(7).fill(5) };
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ maxLength: 700 }),
        fc.integer({ min: 16, max: 200 }),
        fc.array(fc.integer({ min: 1, max: 450 }), { minLength: 1, maxLength: 8 }),
        async (plaintext, recordSize, cuts) => {
          const options = { fileKey, recordSize, ...fixed };
          const streamed = await collectStream(bytesToStream(plaintext, 97).pipeThrough(createEncryptStream(options)));
          // Chunks of varying sizes: whole records (sealed from the chunk), parts and mixtures.
          const encoder = new StreamEncoder(options);
          const out: Uint8Array[] = [];
          const emit = (bytes: Uint8Array) => out.push(bytes.slice());
          await encoder.start(emit);
          for (let offset = 0, i = 0; offset < plaintext.length; i++) {
            const end = Math.min(plaintext.length, offset + (cuts[i % cuts.length] ?? 1));
            await encoder.push(plaintext.subarray(offset, end), emit);
            offset = end;
          }
          await encoder.finish(emit);
          expect(toHex(concatBytes(...out))).toBe(toHex(streamed));
        },
      ),
      { numRuns: 60 },
    );
  }, 60_000);

  it('property: a single flipped bit anywhere is always rejected', async () => {
    const plaintext = pattern(300);
    const ciphertext = await encryptBytes(plaintext, { fileKey, recordSize: SMALL_RECORD });
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: ciphertext.length * 8 - 1 }), async (bit) => {
        const mutated = ciphertext.slice();
        mutated[bit >> 3] = (mutated[bit >> 3] ?? 0) ^ (1 << (bit & 7));
        await expect(decrypt(mutated)).rejects.toBeInstanceOf(CryptoError);
        await expect(decrypt(mutated, { plaintextLength: plaintext.length })).rejects.toBeInstanceOf(CryptoError);
      }),
      { numRuns: 150 },
    );
  }, 60_000);

  it('rejects the wrong file key as corruption', async () => {
    const ciphertext = await encryptBytes(pattern(100), { fileKey, recordSize: SMALL_RECORD });
    const otherKey = fileKey.map((b) => b ^ 0xff);
    const stream = bytesToStream(ciphertext).pipeThrough(createDecryptStream({ fileKey: otherKey }));
    await expect(collectStream(stream)).rejects.toMatchObject({ code: 'stream-record-corrupted' });
  });
});

describe('streaming format: every mutation fails with its own error', () => {
  for (const recordSize of [SMALL_RECORD, DEFAULT_RECORD_SIZE]) {
    const n = recordSize === SMALL_RECORD ? 3 : 2;
    for (const size of boundarySizes(recordSize, n)) {
      describe(`${size} bytes, ${recordSize}-byte records`, () => {
        // Only the mutations that apply to a file this size are generated (no swap in a one-record file).
        for (const mutation of MUTATIONS.filter((m) => mutationApplies(m, size, recordSize))) {
          it(`${mutation}`, { timeout: 30_000 }, async () => {
            const plaintext = pattern(size);
            const ciphertext = await encryptBytes(plaintext, { fileKey, recordSize });
            const mutated = mutate(ciphertext, size, recordSize, mutation);
            if (!mutated) throw new Error(`${mutation} was generated for ${size} bytes but does not apply`);
            const expectedHeaderHash = await sha256(ciphertext.subarray(0, STREAM_HEADER_BYTES));
            const strict = await decryptError(mutated, { plaintextLength: size, expectedHeaderHash, chunkSize: 4096 });
            expect(strict.code).toBe(expectedErrorCode(mutation, recordCount(size, recordSize)));
            // Without the manifest's length and header hash every mutation is still rejected.
            const lenient = await decryptError(mutated, { chunkSize: 1000 });
            expect(lenient.code).toMatch(/^stream-/);
          });
        }
      });
    }
  }

  it('generates no case that does not apply: those are exactly the ones short files cannot have', () => {
    const skipped = (size: number) => MUTATIONS.filter((m) => !mutationApplies(m, size, SMALL_RECORD));
    expect(skipped(0)).toEqual(['drop-first', 'drop-middle', 'swap-first-two', 'swap-last-two', 'flip-first-body', 'flip-final-body']);
    expect(skipped(1)).toEqual(['drop-first', 'drop-middle', 'swap-first-two', 'swap-last-two']);
    expect(skipped(SMALL_RECORD + 1)).toEqual(['drop-middle', 'swap-first-two']);
    expect(skipped(3 * SMALL_RECORD)).toEqual([]);
  });

  it('names mutations exactly without the length too when records are whole', async () => {
    const size = 3 * SMALL_RECORD;
    const ciphertext = await encryptBytes(pattern(size), { fileKey, recordSize: SMALL_RECORD });
    const cases: [Parameters<typeof mutate>[3], string][] = [
      ['drop-first', 'stream-record-missing'],
      ['drop-middle', 'stream-record-missing'],
      ['drop-final', 'stream-truncated'],
      ['swap-first-two', 'stream-record-reordered'],
      ['swap-last-two', 'stream-record-reordered'],
      ['duplicate-first', 'stream-record-duplicated'],
      ['append-copy-of-first', 'stream-record-appended'],
      ['trailing-record-sized-garbage', 'stream-trailing-data'],
      ['flip-magic', 'stream-header-invalid'],
      ['flip-salt', 'stream-record-corrupted'],
      ['flip-first-body', 'stream-record-corrupted'],
      ['flip-final-tag', 'stream-record-corrupted'],
    ];
    for (const [mutation, code] of cases) {
      const mutated = mutate(ciphertext, size, SMALL_RECORD, mutation) as Uint8Array;
      expect([mutation, (await decryptError(mutated)).code]).toEqual([mutation, code]);
    }
  });

  it('rejects an empty final record after full records, but accepts the empty file', async () => {
    for (const plaintextLength of [SMALL_RECORD, 2 * SMALL_RECORD]) {
      const context = await createEncryptionContext(fileKey, { recordSize: SMALL_RECORD });
      const plaintext = pattern(plaintextLength);
      const records: Uint8Array[] = [];
      const full = plaintextLength / SMALL_RECORD;
      for (let i = 0; i < full; i++) records.push(await sealRecord(context, i, plaintext.subarray(i * SMALL_RECORD, (i + 1) * SMALL_RECORD), false));
      records.push(await sealRecord(context, full, new Uint8Array(0), true));
      const crafted = concatBytes(context.headerBytes, ...records);
      expect((await decryptError(crafted)).code).toBe('stream-empty-final-record');
      expect((await decryptError(crafted, { plaintextLength })).code).toBe('stream-empty-final-record');
    }
    const empty = await encryptBytes(new Uint8Array(0), { fileKey, recordSize: SMALL_RECORD });
    expect(empty.length).toBe(STREAM_HEADER_BYTES + STREAM_TAG_BYTES);
    expect(await decrypt(empty)).toEqual(new Uint8Array(0));
  });
});

describe('streaming format: offsets, ranges and resume', () => {
  it('decrypts any plaintext range from just the records that hold it', async () => {
    const size = 5 * SMALL_RECORD + 13;
    const plaintext = pattern(size);
    const ciphertext = await encryptBytes(plaintext, { fileKey, recordSize: SMALL_RECORD });
    const header = ciphertext.subarray(0, STREAM_HEADER_BYTES);
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: size - 1 }), fc.integer({ min: 1, max: size }), async (start, length) => {
        const end = Math.min(size, start + length);
        const range = ciphertextRangeForPlaintext({ start, end, plaintextLength: size, recordSize: SMALL_RECORD });
        const slice = ciphertext.subarray(range.ciphertextStart, range.ciphertextEnd);
        const got = await decryptPlaintextRange({ fileKey, headerBytes: header, plaintextLength: size, start, end, ciphertext: slice });
        expect(got).toEqual(plaintext.subarray(start, end));
      }),
      { numRuns: 80 },
    );
  }, 60_000);

  it('checks the index of each record in a range (a record moved elsewhere fails)', async () => {
    const size = 4 * SMALL_RECORD;
    const ciphertext = await encryptBytes(pattern(size), { fileKey, recordSize: SMALL_RECORD });
    const { header, records } = splitStream(ciphertext, size, SMALL_RECORD);
    await expect(
      decryptRecordRange({ fileKey, headerBytes: header, plaintextLength: size, firstRecord: 1, ciphertext: records[2] as Uint8Array }),
    ).rejects.toMatchObject({ code: 'stream-record-corrupted' });
    await expect(
      decryptRecordRange({ fileKey, headerBytes: header, plaintextLength: size, firstRecord: 2, ciphertext: (records[2] as Uint8Array).subarray(1) }),
    ).rejects.toMatchObject({ code: 'stream-truncated' });
  });

  it('computes resume points on record boundaries', () => {
    const size = 3 * SMALL_RECORD + 5;
    const full = SMALL_RECORD + STREAM_TAG_BYTES;
    expect(resumePoint({ ciphertextBytesReceived: 10, plaintextLength: size, recordSize: SMALL_RECORD })).toEqual({ completeRecords: 0, plaintextBytes: 0, ciphertextOffset: 0 });
    expect(resumePoint({ ciphertextBytesReceived: STREAM_HEADER_BYTES + full + 3, plaintextLength: size, recordSize: SMALL_RECORD })).toEqual({
      completeRecords: 1,
      plaintextBytes: SMALL_RECORD,
      ciphertextOffset: STREAM_HEADER_BYTES + full,
    });
    const total = ciphertextLength(size, SMALL_RECORD);
    expect(resumePoint({ ciphertextBytesReceived: total, plaintextLength: size, recordSize: SMALL_RECORD }).completeRecords).toBe(4);
    expect(resumePoint({ ciphertextBytesReceived: total - 1, plaintextLength: size, recordSize: SMALL_RECORD })).toEqual({
      completeRecords: 3,
      plaintextBytes: 3 * SMALL_RECORD,
      ciphertextOffset: STREAM_HEADER_BYTES + 3 * full,
    });
    expect(ciphertextLength(0, DEFAULT_RECORD_SIZE)).toBe(STREAM_HEADER_BYTES + STREAM_TAG_BYTES);
    expect(recordCount(DEFAULT_RECORD_SIZE, DEFAULT_RECORD_SIZE)).toBe(1);
    expect(recordCount(DEFAULT_RECORD_SIZE + 1, DEFAULT_RECORD_SIZE)).toBe(2);
  });
});
