// Reading a stored file's bytes back part by part (never buffered whole): as a stream, or into the
// caller's buffers (BlobStore.openRange) for the pooled download body.
import { Readable } from 'node:stream';
import type { BlobRangeReader, BlobStore, ByteRange } from '../storage/blob-store';
import { boundsOfPart, type PartLayout } from './parts';

/** The stored parts holding bytes `start..end` (inclusive), each with the range inside it. */
function* partRanges(layout: PartLayout, keyOf: (index: number) => string, start: number, end: number): Generator<{ key: string; range: ByteRange }> {
  const lead = layout.leadingBytes;
  const partOf = (offset: number) => (offset < lead ? 0 : Math.min(layout.partCount - 1, Math.floor((offset - lead) / layout.partSize)));
  for (let i = partOf(start), last = partOf(end); i <= last; i++) {
    const bounds = boundsOfPart(layout, i);
    const range = { start: Math.max(start, bounds.start) - bounds.start, end: Math.min(end, bounds.end - 1) - bounds.start };
    yield { key: keyOf(i), range };
  }
}

/** Bytes `start..end` (inclusive) as a stream. */
export function partsStream(blobs: BlobStore, layout: PartLayout, keyOf: (index: number) => string, start: number, end: number): Readable {
  async function* chunks() {
    for (const { key, range } of partRanges(layout, keyOf, start, end)) {
      for await (const chunk of await blobs.getStream(key, range)) yield chunk as Uint8Array;
    }
  }
  return Readable.from(chunks(), { objectMode: false });
}

/** The same bytes read into the caller's buffers, or null when the store cannot (send `partsStream` then). */
export function partsRangeReader(blobs: BlobStore, layout: PartLayout, keyOf: (index: number) => string, start: number, end: number): BlobRangeReader | null {
  if (!blobs.openRange) return null;
  const openRange = blobs.openRange.bind(blobs);
  const parts = partRanges(layout, keyOf, start, end);
  let current: BlobRangeReader | null = null;
  return {
    async read(target) {
      for (;;) {
        if (!current) {
          const next = parts.next();
          if (next.done) return 0;
          current = await openRange(next.value.key, next.value.range);
        }
        const read = await current.read(target);
        if (read > 0) return read;
        await current.close();
        current = null;
      }
    },
    async close() {
      await current?.close();
      current = null;
    },
  };
}
