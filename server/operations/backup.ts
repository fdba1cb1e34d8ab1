import { spawn } from 'node:child_process';
import { createHash, type Hash } from 'node:crypto';
import { once } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import { access, chmod, copyFile, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import type { KuvertConfig } from '../config';
import { ensurePrivateDir, PRIVATE_FILE_MODE } from '../db/private-files';
import { openDatabase } from '../db/database';
import type { Database } from '../db/schema';
import { SECRET_KEY_FACT, SECRET_KEY_FILE, secretKeyFingerprint } from '../security/secret-box';
import { assertValidKey, BlobNotFoundError, type BlobStore } from '../storage/blob-store';
import { openBlobStore } from '../storage/open-blob-store';
import { listedGroups, type ListedGroup, type ListedPart } from './backup-list';

/**
 * Backup and restore (README, "Backup and restore"): a backup is a folder with
 * - `database.sqlite` (SQLite's online backup: a consistent copy while the server runs) or
 *   `database.pgdump` (`pg_dump --format=custom`);
 * - `blobs/<key>`: every blob the database points to (backup-list.ts: delivery parts, room files
 *   with their versions, in the trash too, plain and E2E, form layout images), copied out of the
 *   blob store (local folder or S3), each checked against the size and SHA-256 the database
 *   recorded (room files: the whole file's SHA-256 over its parts; a part with no recorded hash
 *   gets the one read now in the manifest, so `check` and `restore` verify it later);
 * - `secret.key` when the server keeps its key in the data folder (TOTP secrets need it); a key
 *   given as KUVERT_SECRET_KEY is NOT in the backup: the restore needs the same KUVERT_SECRET_KEY
 *   and refuses to write anything without it (checked against the key's fingerprint the database
 *   recorded, cluster_facts);
 * - `manifest.json`, written last: what is in it, with each blob's size, SHA-256 and item (and
 *   `missing` for one the store lacked).
 * The database is copied first and the blob list read after it, so every blob the copy knows
 * is in the list (an item purged meanwhile may lack bytes: `create` and `check` name it).
 */

export const BACKUP_FORMAT = 'kuvert-backup';
const MANIFEST = 'manifest.json';
const SQLITE_FILE = 'kuvert.sqlite';
const SQLITE_BACKUP = 'database.sqlite';
const PG_BACKUP = 'database.pgdump';

export interface BackupBlob {
  key: string;
  size: number;
  sha256: string;
  /** What it belongs to (backup-list.ts `item`), so `check` names it too; absent in backups made before. */
  item?: string;
  /** The blob store lacked it when the backup ran: the backup has no bytes for it and never passes `check`. */
  missing?: true;
}

export interface BackupManifest {
  format: typeof BACKUP_FORMAT;
  version: 1;
  createdAt: string;
  database: 'sqlite' | 'postgres';
  secretKey: boolean;
  blobs: BackupBlob[];
}

export interface BackupReport {
  blobs: number;
  bytes: number;
  /** One line each; empty when everything is there and intact. */
  problems: string[];
}


const exists = (path: string) => access(path).then(() => true, () => false);

/**
 * pg_dump / pg_restore with the connection in the environment, so the password never shows in the
 * process list (none for a pg_restore that only reads the dump). Answers what the tool printed.
 */
async function runPgTool(tool: 'pg_dump' | 'pg_restore', databaseUrl: string | null, args: string[]): Promise<string> {
  const url = databaseUrl ? new URL(databaseUrl) : null;
  const env = url
    ? {
        ...process.env,
        PGHOST: decodeURIComponent(url.hostname),
        PGPORT: url.port || '5432',
        PGUSER: decodeURIComponent(url.username),
        PGPASSWORD: decodeURIComponent(url.password),
        PGDATABASE: decodeURIComponent(url.pathname.slice(1)),
      }
    : process.env;
  const child = spawn(tool, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  let errors = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString('utf8')));
  const [code] = (await once(child, 'close')) as [number | null];
  if (code !== 0) throw new Error(`${tool} failed (exit ${code}): ${errors.trim().split('\n')[0] ?? ''}`);
  return output;
}

async function sha256OfFile(path: string): Promise<{ size: number; sha256: string }> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of createReadStream(path)) {
    size += (chunk as Buffer).byteLength;
    hash.update(chunk as Buffer);
  }
  return { size, sha256: hash.digest('hex') };
}

/** Streams one blob into `<dir>/blobs/<key>`, hashing it (and feeding `whole`); 'missing' when the store has no such key. */
async function copyBlob(store: BlobStore, dir: string, part: ListedPart, whole: Hash | null): Promise<{ size: number; sha256: string } | 'missing'> {
  assertValidKey(part.key);
  const target = join(dir, 'blobs', ...part.key.split('/'));
  await ensurePrivateDir(dirname(target));
  const hash = createHash('sha256');
  let size = 0;
  try {
    await pipeline(
      await store.getStream(part.key),
      async function* (source: AsyncIterable<Uint8Array>) {
        for await (const chunk of source) {
          size += chunk.byteLength;
          hash.update(chunk);
          whole?.update(chunk);
          yield chunk;
        }
      },
      createWriteStream(target, { mode: PRIVATE_FILE_MODE }),
    );
  } catch (error) {
    if (!(error instanceof BlobNotFoundError)) throw error;
    // A store that answers before it knows (a stream that fails later) may have left an empty file.
    await rm(target, { force: true });
    return 'missing';
  }
  return { size, sha256: hash.digest('hex') };
}

/** Writes a backup of the server configured by `config` into `dir` (new or empty); works while the server runs. */
export async function createBackup(config: KuvertConfig, dir: string): Promise<BackupReport> {
  if ((await readdir(dir).catch(() => [])).length > 0) throw new Error(`${dir} is not empty; back up into a new folder`);
  // 0700: level 1/2 attachments are in clear and secret.key is there.
  await ensurePrivateDir(dir);
  const database = config.databaseUrl ? 'postgres' : 'sqlite';
  let groups: ListedGroup[];
  if (database === 'sqlite') {
    const source = new SQLite(join(config.dataDir, SQLITE_FILE), { readonly: true, fileMustExist: true });
    try {
      await source.backup(join(dir, SQLITE_BACKUP));
    } finally {
      source.close();
    }
    const copy = new Kysely<Database>({ dialect: new SqliteDialect({ database: new SQLite(join(dir, SQLITE_BACKUP), { readonly: true }) }) });
    groups = await listedGroups(copy).finally(() => copy.destroy());
  } else {
    // Created 0600 first (pg_dump keeps the mode of a file it overwrites; it would make one 0644).
    const dump = join(dir, PG_BACKUP);
    await writeFile(dump, '', { mode: PRIVATE_FILE_MODE, flag: 'wx' });
    await runPgTool('pg_dump', config.databaseUrl!, ['--format=custom', '--no-owner', '--no-privileges', `--file=${dump}`]);
    await chmod(dump, PRIVATE_FILE_MODE);
    const live = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolSize: 1 });
    groups = await listedGroups(live.db).finally(() => live.close());
  }

  const store = await openBlobStore(config);
  const problems: string[] = [];
  const blobs: BackupBlob[] = [];
  let bytes = 0;
  try {
    for (const group of groups) {
      // A whole file's hash runs over its parts in order; a part missing or wrong already names the file.
      const whole = group.sha256 === null ? null : createHash('sha256');
      let intact = true;
      const { item } = group;
      for (const part of group.parts) {
        const copied = await copyBlob(store.store, dir, part, whole);
        if (copied === 'missing') {
          problems.push(`missing in the blob store: ${part.key} (${item})`);
          // Listed all the same, so `check` and `restore` refuse the incomplete backup too.
          blobs.push({ key: part.key, size: part.size, sha256: part.sha256 ?? '', item, missing: true });
          intact = false;
          continue;
        }
        bytes += copied.size;
        blobs.push({ key: part.key, size: part.size, sha256: part.sha256 ?? copied.sha256, item });
        if (copied.size !== part.size || (part.sha256 !== null && copied.sha256 !== part.sha256)) {
          problems.push(`differs from what the database recorded: ${part.key} (${item})`);
          intact = false;
        }
      }
      if (whole && intact && whole.digest('hex') !== group.sha256) {
        problems.push(`differs from the file's SHA-256 the database recorded: ${group.parts.map((p) => p.key).join(', ')} (${item})`);
      }
    }
  } finally {
    store.close();
  }

  const keyFile = join(config.dataDir, SECRET_KEY_FILE);
  const secretKey = config.secretKey === undefined && (await exists(keyFile));
  if (secretKey) await copyFile(keyFile, join(dir, SECRET_KEY_FILE));
  const manifest: BackupManifest = { format: BACKUP_FORMAT, version: 1, createdAt: new Date().toISOString(), database, secretKey, blobs };
  await writeFile(join(dir, MANIFEST), `${JSON.stringify(manifest, null, 1)}\n`, { mode: PRIVATE_FILE_MODE });
  return { blobs: blobs.length, bytes, problems };
}

async function readManifest(dir: string): Promise<BackupManifest> {
  const text = await readFile(join(dir, MANIFEST), 'utf8').catch(() => {
    throw new Error(`${dir} has no ${MANIFEST}: not a finished Kuvert backup`);
  });
  const manifest = JSON.parse(text) as BackupManifest;
  if (manifest.format !== BACKUP_FORMAT || manifest.version !== 1) throw new Error(`${dir}/${MANIFEST} is not a Kuvert backup of version 1`);
  return manifest;
}

/** Checks a backup without touching any server: the database copy is there (and intact, for SQLite), every blob is there with its size and SHA-256. */
export async function checkBackup(dir: string): Promise<BackupReport & { manifest: BackupManifest }> {
  const manifest = await readManifest(dir);
  const problems: string[] = [];
  if (manifest.database === 'sqlite') {
    const path = join(dir, SQLITE_BACKUP);
    if (!(await exists(path))) problems.push(`missing: ${SQLITE_BACKUP}`);
    else {
      const copy = new SQLite(path, { readonly: true });
      try {
        const result = copy.pragma('integrity_check', { simple: true });
        if (result !== 'ok') problems.push(`${SQLITE_BACKUP} is damaged: ${String(result)}`);
      } finally {
        copy.close();
      }
    }
  } else if (!((await stat(join(dir, PG_BACKUP)).catch(() => null))?.size ?? 0)) {
    problems.push(`missing or empty: ${PG_BACKUP}`);
  }
  if (manifest.secretKey && !(await exists(join(dir, SECRET_KEY_FILE)))) problems.push(`missing: ${SECRET_KEY_FILE}`);
  let bytes = 0;
  for (const blob of manifest.blobs) {
    assertValidKey(blob.key);
    const path = join(dir, 'blobs', ...blob.key.split('/'));
    const named = blob.item ? `${blob.key} (${blob.item})` : blob.key;
    if (blob.missing || !(await exists(path))) {
      problems.push(`missing blob${blob.missing ? ', already missing from the blob store at backup time' : ''}: ${named}`);
      continue;
    }
    const actual = await sha256OfFile(path);
    bytes += actual.size;
    if (actual.size !== blob.size || actual.sha256 !== blob.sha256) problems.push(`damaged blob (size or SHA-256 differ): ${named}`);
  }
  return { manifest, blobs: manifest.blobs.length, bytes, problems };
}

/** The key fingerprint the backed-up database recorded (cluster_facts), read from the copy without restoring it; null if none. */
async function recordedKeyFingerprint(dir: string, manifest: BackupManifest): Promise<string | null> {
  if (manifest.database === 'sqlite') {
    const copy = new SQLite(join(dir, SQLITE_BACKUP), { readonly: true });
    try {
      const row = copy.prepare('select value from cluster_facts where name = ?').get(SECRET_KEY_FACT) as { value: string } | undefined;
      return row?.value ?? null;
    } catch {
      return null; // a backup older than the table (migration 0030)
    } finally {
      copy.close();
    }
  }
  // The table's data as COPY text: `COPY <schema>.cluster_facts (name, value, created_at) FROM stdin;`, rows with tabs, `\.`.
  const text = await runPgTool('pg_restore', null, ['--data-only', '--table=cluster_facts', '--file=-', join(dir, PG_BACKUP)]);
  const lines = text.split('\n');
  const start = lines.findIndex((line) => /^COPY \S*cluster_facts \(/.test(line));
  if (start < 0) return null;
  const columns = /\(([^)]*)\)/.exec(lines[start]!)![1]!.split(',').map((c) => c.trim().replace(/"/g, ''));
  for (const line of lines.slice(start + 1)) {
    if (line === '\\.') break;
    const values = line.split('\t');
    if (values[columns.indexOf('name')] === SECRET_KEY_FACT) return values[columns.indexOf('value')] ?? null;
  }
  return null;
}

/**
 * Two-factor secrets in the backup are sealed with the installation's key: a restore whose server
 * would start with another key (or none) makes them unreadable, and the server would refuse to start.
 * The key the restored server will use: KUVERT_SECRET_KEY, else a secret.key already in its data
 * folder, else the one in the backup. Checked before anything is written.
 */
async function assertRestoredKeyMatches(config: KuvertConfig, dir: string, manifest: BackupManifest): Promise<void> {
  const recorded = await recordedKeyFingerprint(dir, manifest);
  if (recorded === null) return;
  const keyFile = [join(config.dataDir, SECRET_KEY_FILE), ...(manifest.secretKey ? [join(dir, SECRET_KEY_FILE)] : [])];
  let key: Uint8Array | null = config.secretKey ? Buffer.from(config.secretKey, 'base64') : null;
  for (const path of keyFile) {
    if (key) break;
    if (await exists(path)) key = Buffer.from((await readFile(path, 'utf8')).trim(), 'base64');
  }
  if (!key) {
    throw new Error('KUVERT_SECRET_KEY: the backup was made by servers with KUVERT_SECRET_KEY, which a backup never holds; set the same KUVERT_SECRET_KEY for the restore (and the restored servers); nothing restored');
  }
  if (secretKeyFingerprint(key) !== recorded) {
    throw new Error(`KUVERT_SECRET_KEY: ${config.secretKey ? 'KUVERT_SECRET_KEY' : `${config.dataDir}/${SECRET_KEY_FILE}`} is not the key the backed-up servers used (the two-factor secrets would not open); set the KUVERT_SECRET_KEY they had; nothing restored`);
  }
}

/**
 * Restores a checked backup onto the server configured by `config`, which must be new: no
 * SQLite file in its data folder / no Kuvert tables in its PostgreSQL database. The blobs go
 * into its blob store (local folder or S3, whichever it uses now). Start the server afterwards;
 * migrations bring an older backup up to date. The target is checked and the blob store opened
 * before anything is written, and the database comes last: a restore that fails on the way (a
 * wrong bucket, a full disk) leaves no database behind, so the same command can simply run again.
 */
export async function restoreBackup(config: KuvertConfig, dir: string): Promise<BackupReport> {
  const checked = await checkBackup(dir);
  if (checked.problems.length > 0) throw new Error(`the backup has problems; nothing restored:\n  ${checked.problems.join('\n  ')}`);
  const { manifest } = checked;
  if ((manifest.database === 'postgres') !== Boolean(config.databaseUrl)) {
    throw new Error(`the backup holds a ${manifest.database} database; set ${manifest.database === 'postgres' ? 'DATABASE_URL' : 'no DATABASE_URL'} to restore it`);
  }
  await assertRestoredKeyMatches(config, dir, manifest);
  await ensurePrivateDir(config.dataDir);
  const sqliteTarget = join(config.dataDir, SQLITE_FILE);
  if (manifest.database === 'sqlite') {
    if (await exists(sqliteTarget)) throw new Error(`${sqliteTarget} exists; restore into a new data folder`);
  } else {
    const live = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolSize: 1 });
    // Kysely leaves its own tables out unless asked: without this a used database passed the check.
    const tables = await live.db.introspection.getTables({ withInternalKyselyTables: true }).finally(() => live.close());
    if (tables.some((t) => t.name === 'kysely_migration')) throw new Error('the database of DATABASE_URL already holds Kuvert tables; restore into a new database');
  }
  const store = await openBlobStore(config);
  try {
    for (const blob of manifest.blobs) {
      await store.store.put(blob.key, createReadStream(join(dir, 'blobs', ...blob.key.split('/'))), { expectedSize: blob.size, expectedSha256: blob.sha256 });
    }
  } finally {
    store.close();
  }
  if (manifest.secretKey) {
    const target = join(config.dataDir, SECRET_KEY_FILE);
    if (!(await exists(target))) await copyFile(join(dir, SECRET_KEY_FILE), target);
  }
  if (manifest.database === 'sqlite') {
    // Under another name first: an interrupted copy never looks like a restored database.
    await copyFile(join(dir, SQLITE_BACKUP), `${sqliteTarget}.restoring`);
    await rename(`${sqliteTarget}.restoring`, sqliteTarget);
  } else {
    // One transaction: a pg_restore that fails leaves the database empty, so the command can run again.
    await runPgTool('pg_restore', config.databaseUrl!, ['--single-transaction', '--no-owner', '--no-privileges', `--dbname=${new URL(config.databaseUrl!).pathname.slice(1)}`, join(dir, PG_BACKUP)]);
  }
  return { blobs: manifest.blobs.length, bytes: checked.bytes, problems: [] };
}
