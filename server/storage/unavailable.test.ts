import { mkdtemp, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { S3ServiceException } from '@aws-sdk/client-s3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StorageUnavailableError } from '../core/storage-unavailable';
import { BlobIntegrityError, BlobNotFoundError, type BlobStore } from './blob-store';
import { createLocalBlobStore } from './local-blob-store';
import { guardAvailability, unavailableReason } from './unavailable';

const s3Error = (name: string, status: number) => new S3ServiceException({ name, $fault: status >= 500 ? 'server' : 'client', $metadata: { httpStatusCode: status } });
const errno = (code: string) => Object.assign(new Error(`connect ${code}`), { code });

describe('which errors are outages', () => {
  it('a refused, reset or timed-out connection, a 5xx from S3, a folder refusing access', () => {
    expect(unavailableReason(errno('ECONNREFUSED'))).toBe('ECONNREFUSED');
    expect(unavailableReason(errno('ECONNRESET'))).toBe('ECONNRESET');
    expect(unavailableReason(errno('EACCES'))).toBe('EACCES');
    expect(unavailableReason(Object.assign(new Error('timed out'), { name: 'TimeoutError' }))).toBe('TimeoutError');
    expect(unavailableReason(s3Error('SlowDown', 503))).toBe('SlowDown');
    expect(unavailableReason(s3Error('SomethingElse', 502))).toBe('HTTP 502');
    expect(unavailableReason(new AggregateError([errno('ECONNREFUSED'), errno('ECONNREFUSED')]))).toBe('ECONNREFUSED');
  });

  it('not a missing blob, a mismatching body, a refusal of S3 or a bad key', () => {
    expect(unavailableReason(new BlobNotFoundError('No blob x'))).toBeNull();
    expect(unavailableReason(new BlobIntegrityError('sha256', { size: 1 }))).toBeNull();
    expect(unavailableReason(s3Error('NoSuchKey', 404))).toBeNull();
    expect(unavailableReason(s3Error('AccessDenied', 403))).toBeNull();
    expect(unavailableReason(new Error('Invalid blob key: ../x'))).toBeNull();
    expect(unavailableReason(errno('ENOENT'))).toBeNull();
  });
});

describe('the local folder gone (an unmounted volume)', () => {
  let root: string;
  let store: BlobStore;
  beforeEach(async () => {
    root = join(await mkdtemp(join(tmpdir(), 'kuvert-outage-')), 'blobs');
    store = guardAvailability(createLocalBlobStore(root));
    await store.put('a/b', Readable.from([Buffer.from('kept')]));
  });
  afterEach(() => rm(join(root, '..'), { recursive: true, force: true }));

  it('every operation says the store is unavailable, and the folder is not made again', async () => {
    await rename(root, `${root}.away`);
    const unavailable = expect.any(StorageUnavailableError) as unknown;
    await expect(store.put('a/c', Readable.from([Buffer.from('new')]))).rejects.toEqual(unavailable);
    await expect(store.getStream('a/b')).rejects.toEqual(unavailable);
    await expect(store.openRange!('a/b', { start: 0, end: 1 })).rejects.toEqual(unavailable);
    await expect(store.exists('a/b')).rejects.toEqual(unavailable);
    await expect(store.freeSpace()).rejects.toEqual(unavailable);
    await expect(store.checkReady()).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(rename(`${root}.away`, root)).resolves.toBeUndefined(); // nothing took its place

    const stream = await store.getStream('a/b');
    expect(Buffer.concat(await stream.toArray()).toString()).toBe('kept');
  });

  it('with the folder there, a missing blob is still a missing blob', async () => {
    await expect(store.exists('a/none')).resolves.toBe(false);
    await expect(store.exists('none/x')).resolves.toBe(false);
    await expect(store.getStream('a/none')).rejects.toBeInstanceOf(BlobNotFoundError);
    await expect(store.openRange!('a/none', { start: 0, end: 1 })).rejects.toBeInstanceOf(BlobNotFoundError);
  });
});
