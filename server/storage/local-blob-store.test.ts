import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { Readable } from 'node:stream';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BlobStore } from './blob-store';
import { createLocalBlobStore, TEMP_MAX_IDLE_MS } from './local-blob-store';
import { StorageUnavailableError } from '../core/storage-unavailable';

// What every store guarantees is in blob-store-contract.ts (run by blob-store.test.ts);
// this file checks what only the local folder does: telling its writers apart by host and pid.

let root: string;
let store: BlobStore;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'kuvert-blobs-'));
  store = createLocalBlobStore(root);
});
afterEach(() => rm(root, { recursive: true, force: true }));

describe('local blob store', () => {
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

  it('is not ready when its folder cannot be written', async () => {
    await expect(store.checkReady()).resolves.toBeUndefined();
    await rm(root, { recursive: true, force: true });
    await expect(store.checkReady()).rejects.toThrow();
  });

  it('a write while its folder is away is an outage and never recreates the folder (nor any folder above a key)', async () => {
    await store.put('rooms/r/parts/0', Readable.from([Buffer.from('before')]));
    await rename(root, `${root}.away`);
    try {
      await expect(store.put('rooms/r/parts/1', Readable.from([Buffer.from('during')]))).rejects.toBeInstanceOf(StorageUnavailableError);
      await expect(store.put('deliveries/new/f/0', Readable.from([Buffer.from('during')]))).rejects.toBeInstanceOf(StorageUnavailableError);
      await expect(stat(root)).rejects.toMatchObject({ code: 'ENOENT' });
    } finally {
      await rename(`${root}.away`, root);
    }
    await store.put('deliveries/new/f/0', Readable.from([Buffer.from('after')]));
    expect((await stat(join(root, 'deliveries', 'new', 'f'))).mode & 0o777).toBe(0o700);
  });
});
