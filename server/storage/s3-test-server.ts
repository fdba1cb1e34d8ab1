// A real S3-protocol server (s3rver: the S3 HTTP API on a folder) on a random loopback port,
// for the tests of the S3 blob store and of a Kuvert server running on it. Only tests import
// this file (s3rver is a development dependency).
import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { IncomingMessage, type Server } from 'node:http';
import { mkdir, mkdtemp, readdir, rename, rm, unlink, writeFile } from 'node:fs/promises';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import S3rver from 's3rver';
import { S3_TEMP_PREFIX } from './s3-blob-store';

/** s3rver's built-in key pair; any other is refused (InvalidAccessKeyId). */
export const S3_TEST_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } as const;

export interface S3TestServer {
  endpoint: string;
  bucket: string;
  /** The folder s3rver keeps the objects in. */
  directory: string;
  /** The S3_* environment of a Kuvert server using this bucket. */
  env: Record<string, string>;
  /** The keys of every object in the bucket (read from s3rver's folder, not through S3). */
  objectKeys(): Promise<string[]>;
  /** An outage: closes every connection and stops listening (connections are refused) until `start()`; the objects stay. */
  stop(): Promise<void>;
  /** Listens again on the same port, on the same folder. */
  start(): Promise<void>;
  close(): Promise<void>;
}

export async function startS3TestServer(bucket = 'kuvert-test'): Promise<S3TestServer> {
  const directory = await mkdtemp(join(tmpdir(), 'kuvert-s3-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, vhostBuckets: false, configureBuckets: [{ name: bucket }] });
  makePutAtomic(server);
  const { port } = await server.run();
  // s3rver keeps Node's 5 s keep-alive: under load our client reused pooled sockets s3rver had just
  // closed ("socket hang up" on a fraction of 200 concurrent downloads, retries included). Hosted
  // stores keep idle connections far longer (tens of seconds); so does the test store now.
  const internals = server as unknown as { httpServer: Server; listen(port: number, address: string): Promise<Server> };
  const keepLong = (httpServer: Server) => {
    httpServer.keepAliveTimeout = 60_000;
    httpServer.headersTimeout = 61_000;
  };
  keepLong(internals.httpServer);
  let stopped = false;
  // s3rver removes a folder once its last object is deleted, racing a write into the same folder
  // (ENOENT, thrown in the process that runs s3rver): parts pass through the temp prefix several at a
  // time. A plain file there (not an object: s3rver lists only `*._S3rver_object`) keeps the folder.
  await mkdir(join(directory, bucket, S3_TEMP_PREFIX), { recursive: true });
  await writeFile(join(directory, bucket, S3_TEMP_PREFIX, 'keep-folder'), '');
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    bucket,
    directory,
    env: {
      S3_ENDPOINT: endpoint,
      S3_BUCKET: bucket,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: S3_TEST_CREDENTIALS.accessKeyId,
      S3_SECRET_ACCESS_KEY: S3_TEST_CREDENTIALS.secretAccessKey,
      S3_FORCE_PATH_STYLE: 'true',
    },
    async objectKeys() {
      // s3rver stores object `a/b` as the file `<bucket>/a/b._S3rver_object` (plus metadata files).
      const root = join(directory, bucket);
      const entries = await readdir(root, { recursive: true, withFileTypes: true });
      return entries
        .filter((e) => e.isFile() && e.name.endsWith('._S3rver_object'))
        .map((e) => join(e.parentPath, e.name).slice(root.length + 1).replace(/\._S3rver_object$/, ''))
        .sort();
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      const httpServer = internals.httpServer;
      // s3rver closes its logger when its HTTP server closes; it goes on serving after start().
      httpServer.removeAllListeners('close');
      const closed = new Promise<void>((resolve) => httpServer.close(() => resolve()));
      httpServer.closeAllConnections();
      await closed;
    },
    async start() {
      if (!stopped) return;
      // s3rver's own listen(): a new HTTP server on its request handler (run() would configure the buckets again).
      internals.httpServer = await internals.listen(port, '127.0.0.1');
      keepLong(internals.httpServer);
      stopped = false;
    },
    async close() {
      if (!stopped) await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}

/** What this file needs of s3rver's folder store (lib/stores/filesystem.js). */
interface S3rverObject {
  bucket: string;
  key: string;
  content: NodeJS.ReadableStream | Buffer;
  metadata: Record<string, string>;
  readonly size: number;
}
interface S3rverStore {
  getResourcePath(bucket: string, key: string, resource: string): string;
  putMetadata(bucket: string, key: string, metadata: Record<string, string>, md5: string): Promise<void>;
  putObject(object: S3rverObject): Promise<{ size: number; md5: string }>;
}

/**
 * s3rver writes a PUT's body straight into the object's file, so a PUT cut off half-way leaves a
 * truncated object under the key. AWS S3, MinIO and Ceph RGW never do: a PUT is stored only once
 * its whole announced body arrived (the S3 store relies on that, s3-blob-store.ts `writeObject`).
 * Here the body goes into a side file (not an object: s3rver lists only `*._S3rver_object`) that
 * is renamed onto the object only when complete — s3rver's own code otherwise, hashing included.
 */
function makePutAtomic(server: S3rver): void {
  const store = (server as unknown as { store: S3rverStore }).store;
  const original = store.putObject.bind(store);
  store.putObject = async (object) => {
    if (Buffer.isBuffer(object.content)) return original(object);
    const objectPath = store.getResourcePath(object.bucket, object.key, 'object');
    const incoming = `${objectPath}.incoming-${randomUUID()}`;
    await mkdir(dirname(objectPath), { recursive: true });
    const md5 = createHash('md5');
    let size = 0;
    try {
      const count = new Transform({
        transform(chunk: Buffer, _encoding, callback) {
          md5.update(chunk);
          size += chunk.length;
          callback(null, chunk);
        },
      });
      await pipeline(object.content, count, createWriteStream(incoming));
      // A request body announces its length; a multipart completion (s3rver concatenating the parts) does not.
      const announced = object.content instanceof IncomingMessage ? Number(object.content.headers['content-length']) : Number.NaN;
      if (Number.isFinite(announced) && size !== announced) throw new Error(`incomplete body: ${size} of ${announced} bytes`);
      await rename(incoming, objectPath);
    } catch (error) {
      await unlink(incoming).catch(() => undefined);
      throw error;
    }
    const digest = md5.digest('hex');
    await store.putMetadata(object.bucket, object.key, object.metadata, digest);
    return { size, md5: digest };
  };
}
