import type { Readable } from 'node:stream';

/**
 * Where file bytes live (DESIGN §5): a local folder by default, an S3-compatible bucket when
 * `S3_BUCKET` is set (s3-blob-store.ts).
 * Keys are `/`-separated paths of `[A-Za-z0-9._-]` segments (never `.` or `..`).
 *
 * IMPORTANT: `put` is atomic: the object appears under its key complete or not at all
 * (local: temp file + rename; S3: a single PUT or a completed multipart upload). When
 * `expectedSha256` or `expectedSize` do not match, nothing is stored and the previous
 * object under the key (if any) stays.
 */
export interface BlobStore {
  put(key: string, body: Readable | AsyncIterable<Uint8Array>, options?: PutOptions): Promise<PutResult>;
  /** The bytes `start..end` (inclusive) or the whole object. Throws BlobNotFoundError. */
  getStream(key: string, range?: ByteRange): Promise<Readable>;
  /**
   * Optional: the bytes `start..end` read into the caller's buffers. A download then cycles a few
   * buffers instead of allocating one per chunk (a stream's fresh Buffers made the garbage
   * collector the server's main cost when serving large files). Throws BlobNotFoundError.
   */
  openRange?(key: string, range: ByteRange): Promise<BlobRangeReader>;
  /** Removes the object; a missing one is fine. */
  delete(key: string): Promise<void>;
  /** Removes every object whose key starts with `prefix/`. */
  deletePrefix(prefix: string): Promise<void>;
  exists(key: string): Promise<boolean>;
  /** Bytes still free for new objects (the disk's free space for the local folder), or null when unknown. */
  freeSpace(): Promise<number | null>;
  /**
   * Removes what interrupted writes left behind (a crash mid-`put`), never a write still
   * running. Returns how many were removed. Temp data is never visible under a key, so this
   * only frees space.
   */
  sweepTemporaries(): Promise<number>;
  /** Resolves when the store can serve now (for `/readyz`); throws, naming the problem without secrets, when not. */
  checkReady(): Promise<void>;
}

/** Reads a byte range in order into buffers the caller owns. */
export interface BlobRangeReader {
  /** Reads up to `target.byteLength` bytes into it; 0 once the range is done. */
  read(target: Uint8Array): Promise<number>;
  close(): Promise<void>;
}

export interface PutOptions {
  /** Lower-case hex SHA-256 the body must have. */
  expectedSha256?: string;
  /** Exact byte count the body must have; reading stops as soon as it is exceeded. */
  expectedSize?: number;
}

export interface PutResult {
  size: number;
  sha256: string;
}

export interface ByteRange {
  start: number;
  /** Inclusive. */
  end: number;
}

export class BlobNotFoundError extends Error {
  override readonly name = 'BlobNotFoundError';
}

/** The body did not match `expectedSha256` / `expectedSize`; nothing was stored. */
export class BlobIntegrityError extends Error {
  override readonly name = 'BlobIntegrityError';
  constructor(
    readonly reason: 'sha256' | 'tooLarge' | 'tooSmall',
    readonly actual: { size: number; sha256?: string },
  ) {
    super(`Blob body does not match (${reason})`);
  }
}

const SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/;

/** Throws on a key that could leave the store's root. */
export function assertValidKey(key: string): void {
  const segments = key.split('/');
  if (segments.length === 0 || segments.some((s) => !SEGMENT.test(s) || s === '.' || s === '..')) {
    throw new Error(`Invalid blob key: ${key}`);
  }
}
