// The same blob-store suite against both stores: the local folder, and S3 on a real
// S3-protocol server (s3rver) on a random loopback port.
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { describeBlobStoreContract } from './blob-store-contract';
import { createLocalBlobStore } from './local-blob-store';
import { createS3BlobStore, S3_TEMP_PREFIX, TEMP_MAX_AGE_MS } from './s3-blob-store';
import { S3_TEST_CREDENTIALS, startS3TestServer, type S3TestServer } from './s3-test-server';

const HOST = hostname().replace(/[^A-Za-z0-9-]/g, '-') || 'host';

describeBlobStoreContract('local folder', async () => {
  const root = await mkdtemp(join(tmpdir(), 'kuvert-blobs-'));
  const store = createLocalBlobStore(root);
  const tempFile = async (pid: number) => {
    const dir = join(root, 'deliveries', 'd', 'f');
    await mkdir(dir, { recursive: true });
    const name = `0.${HOST}~${pid}~${randomUUID().slice(0, 8)}.part-tmp`;
    await writeFile(join(dir, name), 'partial');
    return name;
  };
  return {
    store,
    async temporaries() {
      const entries = await readdir(root, { recursive: true, withFileTypes: true });
      return entries.filter((e) => e.isFile() && e.name.endsWith('.part-tmp')).map((e) => e.name);
    },
    // A writer on this host that is gone: its pid names no live process.
    leaveCrashedWrite: () => tempFile(spawnSync(process.execPath, ['-e', '']).pid!),
    leaveRunningWrite: () => tempFile(process.pid),
    abortedWriteMayLinger: false,
    close: () => rm(root, { recursive: true, force: true }),
  };
});

let s3: S3TestServer;
beforeAll(async () => {
  s3 = await startS3TestServer();
});
afterAll(() => s3?.close());

describeBlobStoreContract('S3 (s3rver)', async () => {
  // A fresh bucket folder per test would need a new server; a fresh key space is enough: the
  // suite's keys are deleted after each test.
  const store = createS3BlobStore({ endpoint: s3.endpoint, bucket: s3.bucket, region: 'us-east-1', ...S3_TEST_CREDENTIALS, forcePathStyle: true });
  const tempObject = async () => {
    const key = `${S3_TEMP_PREFIX}${randomUUID()}`;
    // Written through S3 like the store's own temp objects.
    const { PutObjectCommand, S3Client } = await import('@aws-sdk/client-s3');
    const client = new S3Client({ endpoint: s3.endpoint, region: 'us-east-1', forcePathStyle: true, credentials: S3_TEST_CREDENTIALS });
    await client.send(new PutObjectCommand({ Bucket: s3.bucket, Key: key, Body: 'partial' }));
    client.destroy();
    return key;
  };
  return {
    store,
    temporaries: async () => (await s3.objectKeys()).filter((key) => key.startsWith(S3_TEMP_PREFIX)),
    async leaveCrashedWrite() {
      // What survives a crash between the temp PUT and the copy: a complete temp object, aged
      // past the limit (s3rver's LastModified is its file's mtime).
      const key = await tempObject();
      const past = (Date.now() - TEMP_MAX_AGE_MS - 60_000) / 1000;
      await utimes(join(s3.directory, s3.bucket, `${key}._S3rver_object`), past, past);
      return key;
    },
    leaveRunningWrite: tempObject,
    // s3-test-server.ts makes s3rver's PUT atomic like S3's, and removes what an aborted one received.
    abortedWriteMayLinger: false,
    async close() {
      for (const key of await s3.objectKeys()) if (!key.startsWith(S3_TEMP_PREFIX)) await store.delete(key);
      await rm(join(s3.directory, s3.bucket, S3_TEMP_PREFIX), { recursive: true, force: true });
      store.close();
    },
  };
});
