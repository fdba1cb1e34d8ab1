import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { access, mkdir, open, rename, rm, statfs } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { assertValidKey, BlobIntegrityError, BlobNotFoundError, type BlobStore, type ByteRange, type PutOptions, type PutResult } from './blob-store';

/** Temp files carry this suffix; a crash can leave some behind, never under a real key. */
const TEMP_SUFFIX = '.part-tmp';

/**
 * The default blob store: one file per key under `root` (`<dataDir>/blobs`). Writes go to
 * a temp file beside the target, are flushed (fsync) and renamed into place, so a reader
 * or a crash never sees half an object.
 */
export function createLocalBlobStore(root: string): BlobStore {
  const pathOf = (key: string) => {
    assertValidKey(key);
    return join(root, ...key.split('/'));
  };

  return {
    async put(key: string, body: Readable | AsyncIterable<Uint8Array>, options: PutOptions = {}): Promise<PutResult> {
      const target = pathOf(key);
      await mkdir(dirname(target), { recursive: true });
      const temp = `${target}.${randomBytes(6).toString('hex')}${TEMP_SUFFIX}`;
      const hash = createHash('sha256');
      const out = createWriteStream(temp, { flags: 'wx' });
      let size = 0;
      try {
        for await (const chunk of body as AsyncIterable<Uint8Array>) {
          size += chunk.byteLength;
          if (options.expectedSize !== undefined && size > options.expectedSize) throw new BlobIntegrityError('tooLarge', { size });
          hash.update(chunk);
          // Respect back-pressure: never hold more than the stream's buffer in memory.
          if (!out.write(chunk)) await new Promise<void>((resolve, reject) => {
            out.once('drain', resolve);
            out.once('error', reject);
          });
        }
        out.end();
        await finished(out);
        const sha256 = hash.digest('hex');
        if (options.expectedSize !== undefined && size < options.expectedSize) throw new BlobIntegrityError('tooSmall', { size, sha256 });
        if (options.expectedSha256 !== undefined && sha256 !== options.expectedSha256.toLowerCase()) {
          throw new BlobIntegrityError('sha256', { size, sha256 });
        }
        const handle = await open(temp, 'r');
        try {
          await handle.sync();
        } finally {
          await handle.close();
        }
        await rename(temp, target);
        return { size, sha256 };
      } catch (error) {
        out.destroy();
        await rm(temp, { force: true });
        throw error;
      }
    },

    async getStream(key: string, range?: ByteRange): Promise<Readable> {
      const path = pathOf(key);
      try {
        await access(path);
      } catch {
        throw new BlobNotFoundError(`No blob ${key}`);
      }
      return createReadStream(path, range ? { start: range.start, end: range.end } : {});
    },

    async delete(key: string) {
      await rm(pathOf(key), { force: true });
    },

    async deletePrefix(prefix: string) {
      await rm(pathOf(prefix), { recursive: true, force: true });
    },

    async exists(key: string) {
      try {
        await access(pathOf(key));
        return true;
      } catch {
        return false;
      }
    },

    async freeSpace() {
      await mkdir(root, { recursive: true });
      const stats = await statfs(root);
      return Number(stats.bavail) * Number(stats.bsize);
    },
  };
}
