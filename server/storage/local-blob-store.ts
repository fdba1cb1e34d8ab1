import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import { access, chmod, constants, mkdir, open, readdir, rename, rm, stat, statfs, type FileHandle } from 'node:fs/promises';
import { hostname } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { assertValidKey, BlobIntegrityError, BlobNotFoundError, type BlobRangeReader, type BlobStore, type ByteRange, type PutOptions, type PutResult } from './blob-store';
import { ensurePrivateDirSync, PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../db/private-files';
import { StorageUnavailableError } from '../core/storage-unavailable';

/** Temp files carry this suffix; a crash can leave some behind, never under a real key. */
const TEMP_SUFFIX = '.part-tmp';
/**
 * A temp file not written to for this long belongs to no live write: the server drops a
 * connection idle for 60 s (app.ts `connectionTimeout`), so a running put writes far more often.
 */
export const TEMP_MAX_IDLE_MS = 10 * 60_000;
/** Who writes a temp file: `<key>.<host>~<pid>~<random>.part-tmp`, so a restart can tell its dead predecessor's leftovers from live writes. */
const HOST = hostname().replace(/[^A-Za-z0-9-]/g, '-') || 'host';
const TEMP_NAME = /\.([A-Za-z0-9-]+)~(\d+)~[0-9a-f]+\.part-tmp$/;
/** Start of this process: a temp file with our pid but older than this is a predecessor's (pid reuse, e.g. pid 1 in a container). */
const PROCESS_STARTED_AT = Date.now() - process.uptime() * 1000;

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'; // exists, someone else's
  }
}

/** Whether a temp file can go: its writer on this host is gone, or nobody has written to it for a long time. */
function isAbandoned(name: string, modifiedAt: number, now: number): boolean {
  if (now - modifiedAt > TEMP_MAX_IDLE_MS) return true;
  const writer = TEMP_NAME.exec(name);
  // Another host's write (a shared folder) or an older name: only its age tells.
  if (!writer || writer[1] !== HOST) return false;
  const pid = Number(writer[2]);
  if (pid === process.pid) return modifiedAt < PROCESS_STARTED_AT;
  return !processAlive(pid);
}

export function createLocalBlobStore(folder: string): BlobStore {
  // Absolute and normalised: the folder walk below stops by comparing with it.
  const root = resolve(folder);
  // 0700 from the start (and tightened if an older start left it open): attachments of levels 1/2 are in clear.
  ensurePrivateDirSync(root);
  const pathOf = (key: string) => {
    assertValidKey(key);
    return join(root, ...key.split('/'));
  };
  /**
   * The folder is made once, at creation. Gone later (an unmounted volume, a deleted folder) it is
   * an outage, not something to recreate: new blobs would land on the disk under the mount point
   * and vanish when the volume comes back, and every blob read would look missing.
   */
  const assertRoot = async () => {
    try {
      await access(root);
    } catch (error) {
      throw new StorageUnavailableError((error as NodeJS.ErrnoException).code ?? 'missing', { cause: error });
    }
  };
  /**
   * Makes a key's folder below the root, one level at a time, never the root itself: a `mkdir -p`
   * running just after the volume went away would recreate the root on the disk under the mount
   * point, and every later write would land there (and vanish when the volume comes back).
   */
  const makeFolderBelowRoot = async (dir: string): Promise<void> => {
    if (dir.length <= root.length) return assertRoot();
    try {
      await mkdir(dir, { mode: PRIVATE_DIR_MODE });
      await chmod(dir, PRIVATE_DIR_MODE); // whatever the umask
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') return;
      if (code !== 'ENOENT') throw error;
      await makeFolderBelowRoot(dirname(dir)); // throws the outage if the root is gone
      await makeFolderBelowRoot(dir);
    }
  };
  /** A file that cannot be opened: missing (while the folder is there), or the folder's outage. */
  const openFailure = async (key: string, error: unknown): Promise<never> => {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'ENOTDIR') throw error;
    await assertRoot();
    throw new BlobNotFoundError(`No blob ${key}`);
  };

  return {
    async put(key: string, body: Readable | AsyncIterable<Uint8Array>, options: PutOptions = {}): Promise<PutResult> {
      const target = pathOf(key);
      await makeFolderBelowRoot(dirname(target));
      const temp = `${target}.${HOST}~${process.pid}~${randomBytes(6).toString('hex')}${TEMP_SUFFIX}`;
      const hash = createHash('sha256');
      const out = createWriteStream(temp, { flags: 'wx', mode: PRIVATE_FILE_MODE });
      let size = 0;
      try {
        for await (const chunk of body as AsyncIterable<Uint8Array>) {
          size += chunk.byteLength;
          if (options.expectedSize !== undefined && size > options.expectedSize) throw new BlobIntegrityError('tooLarge', { size });
          hash.update(chunk);
          // Respect back-pressure: never hold more than the stream's buffer in memory.
          // events.once drops its 'error' listener when 'drain' comes, so a 5 MiB part
          // (hundreds of drains) does not pile listeners on the stream.
          if (!out.write(chunk)) await once(out, 'drain');
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
        // A write stream still opening its file creates it after destroy(): wait for the close,
        // then remove, or a refused write early in the body would leave its temp file behind.
        if (!out.closed) {
          const closed = once(out, 'close');
          out.destroy();
          await closed.catch(() => undefined);
        }
        await rm(temp, { force: true });
        // The folder went away mid-write (the temp file's folder or the target's is gone): an outage.
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'ENOENT' || code === 'ENOTDIR') await assertRoot();
        throw error;
      }
    },

    async getStream(key: string, range?: ByteRange): Promise<Readable> {
      const path = pathOf(key);
      try {
        await access(path);
      } catch (error) {
        return openFailure(key, error);
      }
      return createReadStream(path, range ? { start: range.start, end: range.end } : {});
    },

    async openRange(key: string, range: ByteRange): Promise<BlobRangeReader> {
      const path = pathOf(key);
      let handle: FileHandle;
      try {
        handle = await open(path, 'r');
      } catch (error) {
        return openFailure(key, error);
      }
      let position = range.start;
      return {
        async read(target) {
          const wanted = Math.min(target.byteLength, range.end + 1 - position);
          if (wanted <= 0) return 0;
          const { bytesRead } = await handle.read(target, 0, wanted, position);
          position += bytesRead;
          return bytesRead;
        },
        close: () => handle.close(),
      };
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
      } catch (error) {
        // A folder that went away is an outage: "not there" would make a commit say the upload is incomplete.
        return openFailure(key, error).catch((failure: unknown) => {
          if (failure instanceof BlobNotFoundError) return false;
          throw failure;
        });
      }
    },

    async freeSpace() {
      await assertRoot();
      const stats = await statfs(root);
      return Number(stats.bavail) * Number(stats.bsize);
    },

    async checkReady() {
      await access(root, constants.R_OK | constants.W_OK);
    },

    async sweepTemporaries() {
      const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
      const now = Date.now();
      let removed = 0;
      for (const entry of entries) {
        if (!entry.isFile() || !entry.name.endsWith(TEMP_SUFFIX)) continue;
        const path = join(entry.parentPath, entry.name);
        const info = await stat(path).catch(() => null); // finished (renamed) meanwhile
        if (info && isAbandoned(entry.name, info.mtimeMs, now)) {
          await rm(path, { force: true });
          removed++;
        }
      }
      return removed;
    },
  };
}
