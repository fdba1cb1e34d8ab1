// The guarantees every BlobStore keeps (blob-store.ts), as one test suite that
// blob-store.test.ts runs against the local folder and against a real S3-protocol server.
// Only tests import this file.
import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BlobIntegrityError, BlobNotFoundError, type BlobStore } from './blob-store';

export interface BlobStoreHarness {
  store: BlobStore;
  /** What writes left behind beside the objects (temp files, temp objects), by name. */
  temporaries(): Promise<string[]>;
  /** Leaves what a write cut off by a crash leaves, old enough for the sweep; returns its name. */
  leaveCrashedWrite(): Promise<string>;
  /** Leaves what a write still running has written so far (the sweep must keep it); returns its name. */
  leaveRunningWrite(): Promise<string>;
  /**
   * The store may keep the bytes of a write it was told to abort for a moment after the abort
   * (s3rver does; AWS S3, MinIO and Ceph store nothing of an aborted PUT). They are never
   * visible under a key and the sweep removes them by age.
   */
  abortedWriteMayLinger: boolean;
  close(): Promise<void>;
}

const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
const bytes = async (s: Readable) => {
  const chunks: Buffer[] = [];
  for await (const c of s) chunks.push(Buffer.from(c as Uint8Array));
  return Buffer.concat(chunks);
};
const text = async (s: Readable) => (await bytes(s)).toString('utf8');
/** A body arriving in small chunks, like a request stream. */
const chunked = (value: string) => Readable.from((function* () {
  for (let i = 0; i < value.length; i += 3) yield Buffer.from(value.slice(i, i + 3));
})());

export function describeBlobStoreContract(name: string, create: () => Promise<BlobStoreHarness>): void {
  describe(`blob store contract: ${name}`, () => {
    let harness: BlobStoreHarness;
    let store: BlobStore;
    beforeEach(async () => {
      harness = await create();
      store = harness.store;
    });
    afterEach(() => harness.close());

    it('streams a body in, hashes it, reads it back whole and by range', async () => {
      const result = await store.put('a/b/0', chunked('hello blob store'), { expectedSize: 16 });
      expect(result).toEqual({ size: 16, sha256: sha(Buffer.from('hello blob store')) });
      expect(await store.exists('a/b/0')).toBe(true);
      expect(await text(await store.getStream('a/b/0'))).toBe('hello blob store');
      expect(await text(await store.getStream('a/b/0', { start: 6, end: 9 }))).toBe('blob');
      expect(await text(await store.getStream('a/b/0', { start: 15, end: 15 }))).toBe('e');
      await expect(store.getStream('a/b/missing')).rejects.toBeInstanceOf(BlobNotFoundError);
      expect(await harness.temporaries()).toEqual([]);
    });

    it('takes a body of unknown size larger than one S3 multipart part, bit-exact', async () => {
      const body = randomBytes(9 * 1_048_576 + 17);
      const pieces = function* () {
        for (let i = 0; i < body.byteLength; i += 65_536) yield body.subarray(i, i + 65_536);
      };
      expect(await store.put('big/0', Readable.from(pieces()))).toEqual({ size: body.byteLength, sha256: sha(body) });
      expect(sha(await bytes(await store.getStream('big/0')))).toBe(sha(body));
      const tail = await bytes(await store.getStream('big/0', { start: body.byteLength - 100, end: body.byteLength - 1 }));
      expect(tail.equals(body.subarray(body.byteLength - 100))).toBe(true);
      expect(await harness.temporaries()).toEqual([]);
    });

    it("reads a range of many chunks into large buffers, bit-exact, and then 0", async () => {
      const body = randomBytes(3 * 1_048_576 + 5);
      await store.put('large/0', Readable.from([body]), { expectedSize: body.byteLength });
      const start = 1_000;
      const end = body.byteLength - 1_000;
      const reader = await store.openRange!('large/0', { start, end });
      const target = new Uint8Array(256 * 1024 + 3);
      const got: Buffer[] = [];
      for (let read = await reader.read(target); read > 0; read = await reader.read(target)) got.push(Buffer.from(target.subarray(0, read)));
      expect(Buffer.concat(got).equals(body.subarray(start, end + 1))).toBe(true);
      expect(await reader.read(target)).toBe(0);
      await reader.close();
    });

    it("reads a range into the caller's buffers, a few bytes at a time, and stops at the range end", async () => {
      await store.put('a/b/1', chunked('hello blob store'));
      const reader = await store.openRange!('a/b/1', { start: 6, end: 13 });
      const target = new Uint8Array(3);
      const got: string[] = [];
      for (let read = await reader.read(target); read > 0; read = await reader.read(target)) got.push(Buffer.from(target.subarray(0, read)).toString('utf8'));
      expect(got.join('')).toBe('blob sto');
      expect(got.every((piece) => piece.length <= 3)).toBe(true);
      expect(await reader.read(target)).toBe(0);
      await reader.close();
      await expect(store.openRange!('a/b/missing', { start: 0, end: 1 })).rejects.toBeInstanceOf(BlobNotFoundError);
    });

    it('stores nothing when the hash or size does not match, and keeps the previous object', async () => {
      await store.put('k/1', chunked('good'));
      await expect(store.put('k/1', chunked('evil'), { expectedSha256: sha(Buffer.from('good')) })).rejects.toMatchObject({ reason: 'sha256' });
      await expect(store.put('k/1', chunked('toolong'), { expectedSize: 4 })).rejects.toBeInstanceOf(BlobIntegrityError);
      await expect(store.put('k/1', chunked('ab'), { expectedSize: 4 })).rejects.toMatchObject({ reason: 'tooSmall' });
      // A known size is how upload parts arrive (S3 writes those straight onto the key).
      await expect(store.put('k/1', chunked('evil'), { expectedSize: 4, expectedSha256: sha(Buffer.from('good')) })).rejects.toMatchObject({ reason: 'sha256' });
      await expect(store.put('k/1', Readable.from([Buffer.from('good'), Buffer.from('X')]), { expectedSize: 4, expectedSha256: sha(Buffer.from('good')) })).rejects.toMatchObject({ reason: 'tooLarge' });
      await expect(store.put('k/2', chunked('evil'), { expectedSha256: sha(Buffer.from('good')) })).rejects.toMatchObject({ reason: 'sha256' });
      expect(await text(await store.getStream('k/1'))).toBe('good');
      expect(await store.exists('k/2')).toBe(false);
      if (!harness.abortedWriteMayLinger) expect(await harness.temporaries()).toEqual([]);
    });

    it('stops reading an endless body at its announced size, and stores nothing of a body that fails part-way', async () => {
      await store.put('k/3', chunked('good'));
      const endless = Readable.from((function* () {
        for (;;) yield Buffer.alloc(65_536, 1);
      })());
      await expect(store.put('k/3', endless, { expectedSize: 1_048_576 })).rejects.toMatchObject({ reason: 'tooLarge' });
      endless.destroy();
      // The client goes away in the middle of a part: the body stream errors.
      const gone = new Error('client went away');
      const failing = Readable.from((async function* () {
        yield Buffer.from('evi');
        throw gone;
      })());
      await expect(store.put('k/3', failing, { expectedSize: 4 })).rejects.toBe(gone);
      await expect(store.put('k/4', Readable.from((async function* () {
        yield Buffer.from('evi');
        throw gone;
      })()))).rejects.toBe(gone);
      expect(await text(await store.getStream('k/3'))).toBe('good');
      expect(await store.exists('k/4')).toBe(false);
      if (!harness.abortedWriteMayLinger) expect(await harness.temporaries()).toEqual([]);
    });

    it('writes a part again idempotently: the same bytes change nothing, new bytes replace the object whole', async () => {
      const sha256 = sha(Buffer.from('part zero'));
      await store.put('p/0', chunked('part zero'), { expectedSha256: sha256, expectedSize: 9 });
      expect(await store.put('p/0', chunked('part zero'), { expectedSha256: sha256, expectedSize: 9 })).toEqual({ size: 9, sha256 });
      expect(await text(await store.getStream('p/0'))).toBe('part zero');
      // Two writers of one key at once (a retried part on another server): one complete body wins.
      await Promise.all([store.put('p/1', chunked('first writer')), store.put('p/1', chunked('other writer'))]);
      expect(['first writer', 'other writer']).toContain(await text(await store.getStream('p/1')));
    });

    it('deletes single objects and prefixes; refuses keys that could leave the root', async () => {
      await store.put('d/x/0', chunked('0'));
      await store.put('d/x/1', chunked('1'));
      await store.put('dd/x/0', chunked('kept: another prefix that starts alike'));
      await store.delete('d/x/0');
      await store.delete('d/x/never-there');
      expect(await store.exists('d/x/0')).toBe(false);
      await store.deletePrefix('d');
      expect(await store.exists('d/x/1')).toBe(false);
      expect(await store.exists('dd/x/0')).toBe(true);
      await expect(store.getStream('d/x/1')).rejects.toBeInstanceOf(BlobNotFoundError);
      for (const key of ['../x', 'a/../../x', '/abs', 'a//b', 'a/.', '', '.tmp/x']) {
        await expect(store.put(key, chunked('x')), key).rejects.toThrow(/Invalid blob key/);
      }
      const free = await store.freeSpace();
      expect(free === null || free > 0).toBe(true);
      await expect(store.checkReady()).resolves.toBeUndefined();
    });

    it('sweeps what a crash cut off, never a write still running, never an object', async () => {
      await store.put('s/0', chunked('a real object'));
      const crashed = await harness.leaveCrashedWrite();
      const running = await harness.leaveRunningWrite();
      expect(await harness.temporaries()).toEqual(expect.arrayContaining([crashed, running]));
      expect(await store.sweepTemporaries()).toBe(1);
      const left = await harness.temporaries();
      expect(left).toContain(running);
      expect(left).not.toContain(crashed);
      expect(await text(await store.getStream('s/0'))).toBe('a real object');
    });
  });
}
