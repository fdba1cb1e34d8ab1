import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  CopyObjectCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { assertValidKey, BlobIntegrityError, BlobNotFoundError, type BlobRangeReader, type BlobStore, type ByteRange, type PutOptions, type PutResult } from './blob-store';
import { checkedBody, queuedRangeReader } from './s3-streams';

/**
 * The blob store on an S3-compatible object store (AWS S3, MinIO, Ceph RGW, …); see
 * server/README.md, "Storage", for how each guarantee of the local store maps to S3.
 *
 * - A blob key is the object key, unchanged. Upload parts are separate objects
 *   (`deliveries/<delivery>/<file>/<part>`), so any server can write any part and an upload
 *   resumes on whichever server the next request reaches; the delivery's database row is the
 *   commit (a file is listed only when every part object exists).
 * - `put` of a known size (every upload part) streams the body straight onto the key, counting
 *   and hashing on the way, and sends the last chunk only once size and SHA-256 match: S3 stores a
 *   PUT only once its whole announced body arrived, so a mismatch aborts it and the previous
 *   object stays. A body of unknown size (or an empty one) goes into a temp object under `.tmp/`
 *   (a prefix no blob key can have: segments never start with a dot), is checked, then copied
 *   server-side onto the key (atomic) and the temp object deleted.
 * - A crash leaves at most an aborted PUT (nothing stored), a complete temp object or, for a body
 *   of unknown size, an unfinished multipart upload; the sweep removes the last two once they are
 *   older than `TEMP_MAX_AGE_MS`, which no running write reaches.
 */

/** Where temp objects live; a blob key never starts with a dot. */
export const S3_TEMP_PREFIX = '.tmp/';
/**
 * A temp object older than this belongs to no running write: it exists only between the end
 * of its PUT and the copy right after (seconds). Generous, because the store's clock (LastModified)
 * may differ from ours.
 */
export const TEMP_MAX_AGE_MS = 10 * 60_000;
/**
 * An unfinished multipart upload (only a body of unknown size takes that path) older than this
 * was cut off by a crash: 24 h is far more than writing one object takes.
 */
export const MULTIPART_MAX_AGE_MS = 24 * 3_600_000;
/** Part size for bodies of unknown size (lib-storage buffers this much per part; S3's minimum is 5 MiB). */
const MULTIPART_PART_SIZE = 8 * 1_048_576;
/** DeleteObjects takes at most 1000 keys. */
const DELETE_BATCH = 1000;
/** An endpoint that does not answer a connection attempt within this is reported as unreachable. */
const CONNECT_TIMEOUT_MS = 5_000;
/** A request whose socket stays silent this long fails (the server drops idle clients after 60 s too). */
const SOCKET_TIMEOUT_MS = 60_000;
/** Concurrent requests to the store per server (each streaming download holds one). */
const S3_MAX_SOCKETS = 1024;

export interface S3BlobStoreOptions {
  /** e.g. `http://127.0.0.1:9000`; unset: AWS's endpoint for the region. */
  endpoint?: string;
  bucket: string;
  region: string;
  /** Both or neither; neither: the SDK's default chain (instance role, AWS_* variables). */
  accessKeyId?: string;
  secretAccessKey?: string;
  /** `https://endpoint/bucket/key` instead of `https://bucket.endpoint/key` (MinIO, Ceph and most self-hosted stores). */
  forcePathStyle: boolean;
}

export interface S3BlobStore extends BlobStore {
  /** Proves at start that the bucket exists and takes writes with these credentials; throws S3ConfigurationError. */
  verifyAccess(): Promise<void>;
  close(): void;
}

/** The S3 configuration does not work (one line for the operator, no secrets). */
export class S3ConfigurationError extends Error {
  override readonly name = 'S3ConfigurationError';
}

const ignore = () => undefined;
const QUIET_LOGGER = { trace: ignore, debug: ignore, info: ignore, warn: ignore, error: ignore };

const statusOf = (error: unknown): number | undefined => (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
const isNotFound = (error: unknown) => statusOf(error) === 404 || (error instanceof S3ServiceException && (error.name === 'NoSuchKey' || error.name === 'NotFound'));

/** Says in one line what is wrong with the S3 settings, naming the variable to fix. */
export function describeS3Failure(error: unknown, options: Pick<S3BlobStoreOptions, 'bucket' | 'endpoint'>): string {
  const where = options.endpoint ?? 'AWS S3';
  const status = statusOf(error);
  if (status === 404 || (error as Error).name === 'NoSuchBucket') return `S3_BUCKET: the bucket "${options.bucket}" does not exist at ${where}; create it first`;
  if (status === 403 || status === 401 || ['InvalidAccessKeyId', 'SignatureDoesNotMatch', 'AccessDenied'].includes((error as Error).name)) {
    return `S3_ACCESS_KEY_ID / S3_SECRET_ACCESS_KEY: ${where} refused them for bucket "${options.bucket}" (HTTP ${status ?? 403}); check the key pair and its rights (read, write, list, delete)`;
  }
  if (status === 301 || status === 400) return `S3_REGION / S3_FORCE_PATH_STYLE: ${where} did not accept the request for bucket "${options.bucket}" (HTTP ${status}); check the region and the addressing style`;
  const code = (error as NodeJS.ErrnoException).code ?? (error as Error).name;
  if (status === undefined) return `S3_ENDPOINT: ${where} is not reachable (${code}: ${(error as Error).message.split('\n')[0]})`;
  return `S3: ${where} answered HTTP ${status} (${code}) for bucket "${options.bucket}"`;
}

export function createS3BlobStore(options: S3BlobStoreOptions): S3BlobStore {
  const client = new S3Client({
    ...(options.endpoint ? { endpoint: options.endpoint } : {}),
    region: options.region,
    forcePathStyle: options.forcePathStyle,
    ...(options.accessKeyId && options.secretAccessKey ? { credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey } } : {}),
    // Checksums only where S3 demands them: many S3-compatible stores do not speak the
    // CRC32 trailers newer SDKs send by default. Integrity is our own SHA-256 anyway.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    // Every download in flight holds one socket for its whole stream: the SDK's default pool of 50
    // made the 51st concurrent download wait, and the connect timeout counts that wait (the bench's
    // 200 concurrent downloads failed part-way). Sockets are kept alive and reused.
    requestHandler: {
      connectionTimeout: CONNECT_TIMEOUT_MS,
      requestTimeout: SOCKET_TIMEOUT_MS,
      httpAgent: { keepAlive: true, maxSockets: S3_MAX_SOCKETS },
      httpsAgent: { keepAlive: true, maxSockets: S3_MAX_SOCKETS },
    },
    maxAttempts: 3,
    // No `Expect: 100-continue` on PUTs: with it the SDK's HTTP handler sends each PUT on a fresh,
    // non-keep-alive connection (a new agent per request) and waits a round trip for the store's
    // "100 Continue" before the first byte — per 4 MiB part a TCP connect and a handshake with the
    // store. Measured with the s3-store bench's upload (3 parts in flight), both settings
    // interleaved in one process: 8–25 % more MiB/s (medians) and 5–10 % less CPU without it. What
    // 100-continue would save (a large body sent to a store that refuses it at once) does not arise:
    // the start proves the bucket and credentials (verifyAccess). The SDK does not retry a streamed
    // body; a part that fails is resent by the client's upload engine (shared/transfer).
    expectContinueHeader: false,
    // Failures surface as errors to the caller; the SDK's own console warnings (e.g. on every
    // aborted mismatching part) would only add noise.
    logger: QUIET_LOGGER,
  });
  const bucket = options.bucket;
  const keyOf = (key: string) => {
    assertValidKey(key);
    return key;
  };

  async function getObject(key: string, range?: ByteRange): Promise<Readable> {
    try {
      const result = await client.send(new GetObjectCommand({ Bucket: bucket, Key: keyOf(key), ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}) }));
      return result.Body as Readable;
    } catch (error) {
      if (isNotFound(error)) throw new BlobNotFoundError(`No blob ${key}`);
      throw error;
    }
  }

  /** Every key under `prefix` (page by page, never the whole listing in memory at once). */
  async function* listKeys(prefix: string): AsyncGenerator<{ key: string; lastModified: number }> {
    let token: string | undefined;
    do {
      const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }));
      for (const object of page.Contents ?? []) {
        if (object.Key) yield { key: object.Key, lastModified: object.LastModified?.getTime() ?? 0 };
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  async function deleteKeys(keys: string[]): Promise<void> {
    if (keys.length === 0) return;
    const result = await client.send(new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: keys.map((Key) => ({ Key })), Quiet: true } }));
    const failed = (result.Errors ?? []).filter((e) => e.Code !== 'NoSuchKey');
    if (failed.length > 0) throw new Error(`S3 could not delete ${failed.length} object(s): ${failed[0]!.Code ?? 'error'} ${failed[0]!.Key ?? ''}`);
  }

  /**
   * Streams the body into `objectKey`, counting and hashing; throws BlobIntegrityError on a size or
   * hash mismatch. With `holdBackLastChunk` (a known, non-zero size) the chunk that completes the
   * announced size is sent only after the body is known to end there and its SHA-256 matches: until
   * that last byte arrives the store has an incomplete PUT, which S3 never stores (a PUT is atomic),
   * so a mismatch aborts it and the key keeps its previous object. That lets a part go straight to
   * its key — no temp object, no CopyObject (which costs a full server-side copy per part).
   */
  async function writeObject(objectKey: string, body: Readable | AsyncIterable<Uint8Array>, put: PutOptions, holdBackLastChunk: boolean): Promise<PutResult> {
    // A mismatch or a failing body (the client went away) aborts the request to S3: S3 then
    // stores nothing. The stream itself ends quietly, so nothing is left waiting for bytes.
    let failure: unknown;
    const abort = new AbortController();
    const checking = checkedBody(body, put, holdBackLastChunk, (error) => {
      failure ??= error;
      abort.abort();
    });
    const checked = checking.stream;
    try {
      if (put.expectedSize !== undefined) {
        // Known size (every upload part): one streamed PUT, nothing buffered.
        await client.send(new PutObjectCommand({ Bucket: bucket, Key: objectKey, Body: checked, ContentLength: put.expectedSize }), { abortSignal: abort.signal });
      } else {
        // Unknown size: multipart, one part buffered at a time; an error aborts the upload.
        const upload = new Upload({ client, params: { Bucket: bucket, Key: objectKey, Body: checked }, partSize: MULTIPART_PART_SIZE, queueSize: 1, leavePartsOnError: false, abortController: abort });
        await upload.done();
      }
    } catch (error) {
      checking.detach();
      checked.destroy();
      throw failure ?? error;
    } finally {
      checking.release();
    }
    if (failure) throw failure;
    const { size, sha256 } = checking.result();
    if (put.expectedSha256 !== undefined && sha256 !== put.expectedSha256.toLowerCase()) throw new BlobIntegrityError('sha256', { size, sha256 });
    return { size, sha256 };
  }

  return {
    async put(key, body, putOptions: PutOptions = {}) {
      const target = keyOf(key);
      // A known size (every upload part): straight onto the key, last chunk held back (writeObject).
      if (putOptions.expectedSize !== undefined && putOptions.expectedSize > 0) return writeObject(target, body, putOptions, true);
      // Unknown size (a multipart upload: what a crash leaves of it must sit under the temp prefix
      // for the sweep) or an empty body (no last chunk to hold back): a temp object, checked, then copied.
      const tempKey = `${S3_TEMP_PREFIX}${randomUUID()}`;
      try {
        const result = await writeObject(tempKey, body, putOptions, false);
        await client.send(new CopyObjectCommand({ Bucket: bucket, Key: target, CopySource: `${bucket}/${tempKey}` }));
        return result;
      } finally {
        await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: tempKey })).catch(() => undefined); // the sweep takes it otherwise
      }
    },

    getStream: (key, range) => getObject(key, range),

    openRange: async (key, range): Promise<BlobRangeReader> => queuedRangeReader(await getObject(key, range), key),

    async delete(key) {
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: keyOf(key) }));
    },

    async deletePrefix(prefix) {
      const base = `${keyOf(prefix)}/`;
      let batch: string[] = [];
      for await (const { key } of listKeys(base)) {
        batch.push(key);
        if (batch.length === DELETE_BATCH) {
          await deleteKeys(batch);
          batch = [];
        }
      }
      await deleteKeys(batch);
    },

    async exists(key) {
      try {
        await client.send(new HeadObjectCommand({ Bucket: bucket, Key: keyOf(key) }));
        return true;
      } catch (error) {
        if (isNotFound(error)) return false;
        throw error;
      }
    },

    // An object store has no free-space figure; the global quota is the limit.
    freeSpace: async () => null,

    async sweepTemporaries() {
      const now = Date.now();
      const stale: string[] = [];
      for await (const { key, lastModified } of listKeys(S3_TEMP_PREFIX)) {
        if (now - lastModified > TEMP_MAX_AGE_MS) stale.push(key);
      }
      for (let i = 0; i < stale.length; i += DELETE_BATCH) await deleteKeys(stale.slice(i, i + DELETE_BATCH));
      let removed = stale.length;
      try {
        const uploads = await client.send(new ListMultipartUploadsCommand({ Bucket: bucket, Prefix: S3_TEMP_PREFIX }));
        for (const upload of uploads.Uploads ?? []) {
          if (upload.Key && upload.UploadId && now - (upload.Initiated?.getTime() ?? now) > MULTIPART_MAX_AGE_MS) {
            await client.send(new AbortMultipartUploadCommand({ Bucket: bucket, Key: upload.Key, UploadId: upload.UploadId }));
            removed++;
          }
        }
      } catch (error) {
        // Some S3-compatible stores cannot list multipart uploads; a bucket lifecycle rule
        // (AbortIncompleteMultipartUpload) does this there (server/README.md, "Storage").
        if (statusOf(error) !== 501) throw error;
      }
      return removed;
    },

    async checkReady() {
      await client.send(new HeadBucketCommand({ Bucket: bucket }));
    },

    async verifyAccess() {
      try {
        await client.send(new HeadBucketCommand({ Bucket: bucket }));
        // Writing, reading and deleting a probe proves the key pair's rights, not only that the bucket exists.
        const probe = `${S3_TEMP_PREFIX}start-probe-${randomUUID()}`;
        await client.send(new PutObjectCommand({ Bucket: bucket, Key: probe, Body: 'kuvert', ContentLength: 6 }));
        await client.send(new HeadObjectCommand({ Bucket: bucket, Key: probe }));
        await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: probe }));
      } catch (error) {
        throw new S3ConfigurationError(describeS3Failure(error, options));
      }
    },

    close: () => client.destroy(),
  };
}
