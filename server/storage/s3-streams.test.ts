// The S3 range reader (s3-streams.ts queuedRangeReader) keeps its memory bounded: a download whose
// client stops reading must not make the server pull a whole part from the store, neither for the
// part being sent nor for the one opened ahead (uploads/bytes.ts partsRangeReader).
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { partsRangeReader } from '../uploads/bytes';
import type { BlobStore, ByteRange } from './blob-store';
import { queuedRangeReader, RANGE_QUEUE_BYTES } from './s3-streams';

const PART = 4 * 1024 * 1024;
const CHUNK = 64 * 1024;

/** A part of `size` bytes (byte i of part p is (i + p) & 255) that counts what was pulled from it, in 64 KiB chunks like a response. */
function countingPart(part: number, range: ByteRange) {
  let next = range.start;
  const source = {
    pulled: 0,
    stream: new Readable({
      highWaterMark: CHUNK,
      read() {
        if (next > range.end) return void this.push(null);
        const length = Math.min(CHUNK, range.end + 1 - next);
        const chunk = Buffer.alloc(length);
        for (let i = 0; i < length; i++) chunk[i] = (next + i + part) & 255;
        next += length;
        source.pulled += length;
        this.push(chunk);
      },
    }),
  };
  return source;
}

/** Lets the streams run until nothing more moves (the reader is not read meanwhile). */
const settle = () => sleep(50);
/** What a paused reader may hold: its queue, one chunk that crossed the limit, the stream's own buffer. */
const BOUND = RANGE_QUEUE_BYTES + 2 * CHUNK;

describe('S3 range reader', () => {
  it('pauses the response at its queue limit while nobody reads, and resumes for the next reads', async () => {
    const source = countingPart(0, { start: 0, end: PART - 1 });
    const reader = queuedRangeReader(source.stream, 'deliveries/d/f/0');
    await settle();
    expect(source.pulled).toBeGreaterThan(0);
    expect(source.pulled).toBeLessThanOrEqual(BOUND);

    const target = Buffer.alloc(256 * 1024);
    const hash = createHash('sha256');
    let read = await reader.read(target);
    hash.update(target.subarray(0, read));
    let total = read;
    await settle();
    expect(source.pulled).toBeLessThanOrEqual(total + BOUND);

    while ((read = await reader.read(target)) > 0) {
      hash.update(target.subarray(0, read));
      total += read;
    }
    expect(total).toBe(PART);
    const expected = Buffer.alloc(PART);
    for (let i = 0; i < PART; i++) expected[i] = i & 255;
    expect(hash.digest('hex')).toBe(createHash('sha256').update(expected).digest('hex'));
    await reader.close();
  });

  it('a download that stops reading holds a bounded amount of the current part and of the part opened ahead', async () => {
    const opened: ReturnType<typeof countingPart>[] = [];
    const blobs = {
      openRange: async (key: string, range: ByteRange) => {
        const source = countingPart(Number(key.split('/').pop()), range);
        opened.push(source);
        return queuedRangeReader(source.stream, key);
      },
    } as Pick<BlobStore, 'openRange'> as BlobStore;
    const layout = { size: 3 * PART, partSize: PART, partCount: 3, leadingBytes: 0 };
    const reader = partsRangeReader(blobs, layout, (i) => `deliveries/d/f/${i}`, 0, layout.size - 1)!;
    // One 256 KiB buffer filled, as the pooled download body does, then the client stops reading.
    const target = Buffer.alloc(256 * 1024);
    for (let filled = 0; filled < target.byteLength; ) filled += await reader.read(target.subarray(filled));
    await settle();
    // Part 0 streams, part 1 is open ahead, part 2 not yet: neither pulled much more than its queue.
    expect(opened).toHaveLength(2);
    expect(opened[0]!.pulled).toBeLessThanOrEqual(target.byteLength + BOUND);
    expect(opened[1]!.pulled).toBeGreaterThan(0);
    expect(opened[1]!.pulled).toBeLessThanOrEqual(BOUND);
    await reader.close();
    expect(opened.every((source) => source.stream.destroyed)).toBe(true);
  });
});
