import { describe, expect, it } from 'vitest';
import { ciphertextLength, recordCiphertextOffset, STREAM_HEADER_BYTES, STREAM_TAG_BYTES } from '@shared/crypto/stream-format';
import { E2E_RECORD_TAG_BYTES, E2E_STREAM_HEADER_BYTES, e2ePartLayout, e2ePlaintextSize, partBounds, partCountOf } from './deliveries';

// The server may only import the contract, so the contract repeats two numbers of the stream
// format; these tests keep them and the part layout in step with shared/crypto.
describe('E2E part layout', () => {
  it('repeats the stream format numbers of shared/crypto', () => {
    expect(E2E_STREAM_HEADER_BYTES).toBe(STREAM_HEADER_BYTES);
    expect(E2E_RECORD_TAG_BYTES).toBe(STREAM_TAG_BYTES);
  });

  const R = 64;
  const sizes = [0, 1, R - 1, R, R + 1, 8 * R - 1, 8 * R, 8 * R + 1, 16 * R, 17 * R + 5, 100 * R + 3];

  it.each(sizes)('plaintext %i: the ciphertext size maps back, and every part boundary is a record boundary', (plain) => {
    const size = ciphertextLength(plain, R);
    expect(e2ePlaintextSize(size, R)).toBe(plain);
    const { partSize, leadingBytes } = e2ePartLayout(R);
    const count = partCountOf(size, partSize, leadingBytes);
    let covered = 0;
    for (let i = 0; i < count; i++) {
      const { start, end } = partBounds({ size, partSize, leadingBytes }, i);
      expect(start).toBe(covered);
      // Part i starts at record 8i (after the header for part 0).
      if (i > 0) expect(start).toBe(recordCiphertextOffset(8 * i, R));
      expect(end).toBeGreaterThan(start);
      covered = end;
    }
    expect(covered).toBe(size);
  });

  it('refuses sizes no stream can have', () => {
    for (const bad of [0, 48, 49, 64, ciphertextLength(R, R) + 1, ciphertextLength(8 * R, R) + 16]) {
      expect(e2ePlaintextSize(bad, R), String(bad)).toBeNull();
    }
  });

  it('plain files: parts of partSize, the last one shorter', () => {
    expect(partCountOf(0, 1024)).toBe(1);
    expect(partCountOf(2049, 1024)).toBe(3);
    expect(partBounds({ size: 2049, partSize: 1024 }, 2)).toEqual({ start: 2048, end: 2049 });
  });
});
