import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BlobIntegrityError, BlobNotFoundError, type BlobStore } from './blob-store';
import { createLocalBlobStore, TEMP_MAX_IDLE_MS } from './local-blob-store';

let root: string;
let store: BlobStore;
const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
const text = async (s: Readable) => {
  const chunks: Buffer[] = [];
  for await (const c of s) chunks.push(Buffer.from(c as Uint8Array));
  return Buffer.concat(chunks).toString('utf8');
};
/** A body arriving in small chunks, like a request stream. */
const chunked = (value: string) => Readable.from((function* () {
  for (let i = 0; i < value.length; i += 3) yield Buffer.from(value.slice(i, i + 3));
})());

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'kuvert-blobs-'));
  store = createLocalBlobStore(root);
});
afterEach(() => rm(root, { recursive: true, force: true }));

describe('local blob store', () => {
  it('streams a body in, hashes it, reads it back whole and by range', async () => {
    const result = await store.put('a/b/0', chunked('hello blob store'));
    expect(result).toEqual({ size: 16, sha256: sha(Buffer.from('hello blob store')) });
    expect(await store.exists('a/b/0')).toBe(true);
    expect(await text(await store.getStream('a/b/0'))).toBe('hello blob store');
    expect(await text(await store.getStream('a/b/0', { start: 6, end: 9 }))).toBe('blob');
  });

  it('reads a range into the caller\'s buffers, a few bytes at a time, and stops at the range end', async () => {
    await store.put('a/b/1', chunked('hello blob store'));
    const reader = await store.openRange!('a/b/1', { start: 6, end: 13 });
    const target = new Uint8Array(3);
    const got: string[] = [];
    for (let read = await reader.read(target); read > 0; read = await reader.read(target)) got.push(Buffer.from(target.subarray(0, read)).toString('utf8'));
    expect(got).toEqual(['blo', 'b s', 'to']);
    expect(await reader.read(target)).toBe(0);
    await reader.close();
    await expect(store.openRange!('a/b/missing', { start: 0, end: 1 })).rejects.toBeInstanceOf(BlobNotFoundError);
  });

  it('stores nothing when the hash or size does not match, and keeps the previous object', async () => {
    await store.put('k/1', chunked('good'));
    await expect(store.put('k/1', chunked('evil'), { expectedSha256: sha(Buffer.from('good')) })).rejects.toMatchObject({ reason: 'sha256' });
    await expect(store.put('k/1', chunked('toolong'), { expectedSize: 4 })).rejects.toBeInstanceOf(BlobIntegrityError);
    await expect(store.put('k/1', chunked('ab'), { expectedSize: 4 })).rejects.toMatchObject({ reason: 'tooSmall' });
    expect(await text(await store.getStream('k/1'))).toBe('good');
    // No temp files left behind.
    expect(await readdir(join(root, 'k'))).toEqual(['1']);
  });

  it('deletes single objects and prefixes; refuses keys that could leave the root', async () => {
    await store.put('d/x/0', chunked('0'));
    await store.put('d/x/1', chunked('1'));
    await store.delete('d/x/0');
    expect(await store.exists('d/x/0')).toBe(false);
    await store.deletePrefix('d');
    expect(await store.exists('d/x/1')).toBe(false);
    await expect(store.getStream('d/x/1')).rejects.toBeInstanceOf(BlobNotFoundError);
    for (const key of ['../x', 'a/../../x', '/abs', 'a//b', 'a/.', '']) {
      await expect(store.put(key, chunked('x')), key).rejects.toThrow(/Invalid blob key/);
    }
    expect(await store.freeSpace()).toBeGreaterThan(0);
  });

  it('sweeps the temp files of writers that are gone, never those of a running write', async () => {
    const host = hostname().replace(/[^A-Za-z0-9-]/g, '-') || 'host';
    const dead = spawnSync(process.execPath, ['-e', '']).pid!; // exited: its pid names no live process
    const dir = join(root, 'deliveries', 'd', 'f');
    await mkdir(dir, { recursive: true });
    const temp = (name: string) => join(dir, name);
    await writeFile(temp(`0.${host}~${dead}~aa11.part-tmp`), 'cut off by a crash');
    await writeFile(temp(`1.${host}~${process.pid}~bb22.part-tmp`), 'our own write, running');
    await writeFile(temp(`2.other-host~${dead}~cc33.part-tmp`), 'another host: only age tells');
    await writeFile(temp(`3.other-host~1~dd44.part-tmp`), 'another host, idle for long');
    const longAgo = (Date.now() - TEMP_MAX_IDLE_MS - 60_000) / 1000;
    await utimes(temp(`3.other-host~1~dd44.part-tmp`), longAgo, longAgo);
    await writeFile(temp('4'), 'a real object');

    expect(await store.sweepTemporaries()).toBe(2);
    expect((await readdir(dir)).sort()).toEqual([`1.${host}~${process.pid}~bb22.part-tmp`, `2.other-host~${dead}~cc33.part-tmp`, '4']);
  });
});
