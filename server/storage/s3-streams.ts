// The S3 store's byte paths (s3-blob-store.ts): a part body checked on its way to the PUT, and a
// GetObject response read into the caller's buffers. Both take the stream's chunks as 'data'
// events instead of async-iterating it: an async iterator's read() joins whatever the stream has
// buffered into a new Buffer (a copy of most bytes) and costs a few promises per chunk
// (0.47 -> 0.40 CPU-seconds per 256 MiB uploaded; server/README "Storage").
import { createHash } from 'node:crypto';
import { Readable, Transform } from 'node:stream';
import { BlobIntegrityError, type BlobRangeReader, type PutOptions } from './blob-store';

/**
 * Response bytes one range reader queues before it pauses the response: a client that stops
 * reading holds at most this (plus the stream's and the socket's buffers) per open part, never a
 * whole part. A bigger queue (1 MiB, or the whole 4 MiB part for the part read ahead, so two GETs
 * stream at once like a bare SDK client) measured no faster: server/README "Storage".
 */
export const RANGE_QUEUE_BYTES = 128 * 1024;

/**
 * `body` piped through a Transform that counts and hashes it. A size or hash mismatch, or a failing
 * body, goes to `fail` (which aborts the PUT) and ends the stream quietly; reading stops at the
 * first byte past `expectedSize` (what follows stays unread). With `holdBackLastChunk` the chunk
 * that completes `expectedSize` is passed on only once the body ends there and its SHA-256 matches.
 */
export function checkedBody(body: Readable | AsyncIterable<Uint8Array>, put: PutOptions, holdBackLastChunk: boolean, fail: (error: unknown) => void) {
  const hash = createHash('sha256');
  let size = 0;
  let sha256: string | undefined;
  let failed = false;
  let held: Uint8Array | null = null;
  const source = body instanceof Readable ? body : Readable.from(body, { objectMode: false });
  const stop = (error: unknown) => {
    failed = true;
    fail(error);
    source.unpipe(stream);
    if (!stream.writableEnded) stream.end();
  };
  const stream = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      if (failed || chunk.byteLength === 0) return done();
      size += chunk.byteLength;
      if (put.expectedSize !== undefined && size > put.expectedSize) {
        done();
        return stop(new BlobIntegrityError('tooLarge', { size }));
      }
      hash.update(chunk);
      if (holdBackLastChunk && size === put.expectedSize) {
        held = chunk;
        return done();
      }
      done(null, chunk);
    },
    flush(done) {
      if (failed) return done();
      if (put.expectedSize !== undefined && size < put.expectedSize) {
        failed = true;
        fail(new BlobIntegrityError('tooSmall', { size }));
        return done();
      }
      if (held) {
        sha256 = hash.digest('hex');
        if (put.expectedSha256 !== undefined && sha256 !== put.expectedSha256.toLowerCase()) {
          failed = true;
          fail(new BlobIntegrityError('sha256', { size, sha256 }));
          return done();
        }
        return done(null, held);
      }
      done();
    },
  });
  // pipe() does not pass a source's error on: a failing body (the client went away) aborts the PUT.
  source.on('error', stop);
  source.pipe(stream);
  return {
    stream,
    /** Size and SHA-256 of what passed (once the PUT is done). */
    result: () => ({ size, sha256: (sha256 ??= hash.digest('hex')) }),
    /** Stops reading the body (the PUT failed). */
    detach: () => source.unpipe(stream),
    /** Drops the error listener from the body (the caller's request stream outlives the PUT). */
    release: () => source.off('error', stop),
  };
}

/**
 * Reads a response into the caller's buffers: its chunks queue as 'data' events (the response is
 * paused at `queueBytes`, resumed below it) and each read fills the buffer from as many queued
 * chunks as fit, so the pooled download body needs one read per buffer, not one per 64 KiB chunk.
 * `queueBytes` is there for tests/bench/s3-download-ab.ts, which compares queue sizes.
 */
export function queuedRangeReader(stream: Readable, key: string, queueBytes = RANGE_QUEUE_BYTES): BlobRangeReader {
  const queue: Buffer[] = [];
  let queued = 0;
  let ended = false;
  let failed: unknown = null;
  let wake: (() => void) | null = null;
  const signal = () => {
    const waiting = wake;
    wake = null;
    waiting?.();
  };
  stream.on('data', (chunk: Buffer) => {
    queue.push(chunk);
    queued += chunk.byteLength;
    if (queued >= queueBytes) stream.pause();
    signal();
  });
  stream.on('end', () => {
    ended = true;
    signal();
  });
  stream.on('error', (error) => {
    failed ??= error;
    signal();
  });
  stream.on('close', () => {
    if (!ended) failed ??= new Error(`The store's response for ${key} ended early`);
    signal();
  });
  return {
    async read(target) {
      while (queue.length === 0) {
        if (failed) throw failed;
        if (ended) return 0;
        await new Promise<void>((resolve) => (wake = resolve));
      }
      let count = 0;
      while (count < target.byteLength && queue.length > 0) {
        const chunk = queue[0]!;
        const take = Math.min(target.byteLength - count, chunk.byteLength);
        target.set(take === chunk.byteLength ? chunk : chunk.subarray(0, take), count);
        count += take;
        if (take === chunk.byteLength) queue.shift();
        else queue[0] = chunk.subarray(take);
      }
      queued -= count;
      if (queued < queueBytes && stream.isPaused() && !ended) stream.resume();
      return count;
    },
    async close() {
      stream.destroy();
    },
  };
}
