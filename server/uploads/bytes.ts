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

/**
 * Opens each part one step ahead: while part i streams, the request for part i+1 is already on
 * its way. On an object store every part is its own GET whose first byte takes a round trip
 * (milliseconds on a LAN, tens of them on AWS); without this, that wait came between every two
 * 4 MiB parts. One open part ahead hides it and holds only that part's socket buffers, not its
 * bytes (the stream waits for us: backpressure).
 */
function readAhead<T>(parts: Iterator<{ key: string; range: ByteRange }>, open: (key: string, range: ByteRange) => Promise<T>, dispose: (opened: T) => unknown) {
  const start = (): Promise<T> | null => {
    const next = parts.next();
    if (next.done) return null;
    const opened = open(next.value.key, next.value.range);
    opened.catch(() => undefined); // awaited by take(); a failure of an unwanted read-ahead is not unhandled
    return opened;
  };
  let ahead = start();
  return {
    /** The next part, opened; null after the last. */
    async take(): Promise<T | null> {
      if (!ahead) return null;
      const current = ahead;
      ahead = start();
      return current;
    },
    /** Closes a part opened ahead that nobody took. */
    async discard(): Promise<void> {
      const left = ahead;
      ahead = null;
      if (left) await left.then(dispose, () => undefined);
    },
  };
}

type PartStreams = ReturnType<typeof readAhead<Readable>>;

function streamOf(parts: PartStreams, first: Readable | null): Readable {
  async function* chunks() {
    try {
      for (let stream = first ?? (await parts.take()); stream; stream = await parts.take()) {
        for await (const chunk of stream) yield chunk as Uint8Array;
      }
    } finally {
      await parts.discard();
    }
  }
  return Readable.from(chunks(), { objectMode: false });
}

const openParts = (blobs: BlobStore, layout: PartLayout, keyOf: (index: number) => string, start: number, end: number): PartStreams =>
  readAhead(partRanges(layout, keyOf, start, end), (key, range) => blobs.getStream(key, range), (stream) => stream.destroy());

/** Bytes `start..end` (inclusive) as a stream. */
export function partsStream(blobs: BlobStore, layout: PartLayout, keyOf: (index: number) => string, start: number, end: number): Readable {
  return streamOf(openParts(blobs, layout, keyOf, start, end), null);
}

/** The same stream with its first part already open: a store outage throws here, before an answer has started. */
export async function openPartsStream(blobs: BlobStore, layout: PartLayout, keyOf: (index: number) => string, start: number, end: number): Promise<Readable> {
  const parts = openParts(blobs, layout, keyOf, start, end);
  try {
    return streamOf(parts, await parts.take());
  } catch (error) {
    await parts.discard();
    throw error;
  }
}

/** A range reader that can open its first part before the answer starts. */
export interface PartsRangeReader extends BlobRangeReader {
  /** Opens the first part now: a store outage throws here (the caller answers 503), not after the headers went out. */
  open(): Promise<void>;
}

/** The same bytes read into the caller's buffers, or null when the store cannot (send `partsStream` then). */
export function partsRangeReader(blobs: BlobStore, layout: PartLayout, keyOf: (index: number) => string, start: number, end: number): PartsRangeReader | null {
  if (!blobs.openRange) return null;
  const openRange = blobs.openRange.bind(blobs);
  let parts: ReturnType<typeof readAhead<BlobRangeReader>> | null = null;
  let current: BlobRangeReader | null = null;
  const begin = () => (parts ??= readAhead(partRanges(layout, keyOf, start, end), openRange, (reader) => reader.close()));
  return {
    async open() {
      current ??= await begin().take();
    },
    async read(target) {
      // Opened on the first read (or open()), not before: a HEAD request or a refused download reads nothing.
      parts = begin();
      for (;;) {
        if (!current) {
          current = await parts.take();
          if (!current) return 0;
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
      await parts?.discard();
    },
  };
}
