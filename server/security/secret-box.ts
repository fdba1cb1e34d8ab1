import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import { chmod, mkdir, open, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import { recordClusterFact } from '../db/cluster-facts';
import type { Database } from '../db/schema';

/**
 * Server-side secrets at rest (TOTP secrets): AES-256-GCM under a server key that is NOT in
 * the database, so a copy of the database (backup, dump, SQL injection) does not hand out
 * the second factor of every user. The key comes from `KUVERT_SECRET_KEY` or from the key
 * file `<dataDir>/secret.key`, created with mode 0600 on first start.
 *
 * Stored form: `enc1:` + base64url(12-byte IV | ciphertext | 16-byte tag); the additional
 * data binds each value to its user and column, so a sealed secret copied to another row
 * does not open. Base32 secrets never start with `enc1:`, so old plaintext rows are told apart.
 */
const PREFIX = 'enc1:';
const KEY_BYTES = 32;
/** GCM's recommended nonce size; a fresh random one per value (few values, no reuse risk). */
const IV_BYTES = 12;
const TAG_BYTES = 16;
export const SECRET_KEY_FILE = 'secret.key';

/** The column a value is sealed for (bound into the additional data with its row's id). */
export type SealedColumn = 'totp_secret' | 'totp_pending_secret' | 'form_flows.secret' | 'trust_connections.private_key';

export interface SecretBox {
  seal(userId: number, column: SealedColumn, plaintext: string): string;
  /** The plaintext; throws when the value was sealed under another key or altered. */
  open(userId: number, column: SealedColumn, stored: string): string;
}

export const isSealed = (stored: string) => stored.startsWith(PREFIX);

export function createSecretBox(key: Uint8Array): SecretBox {
  if (key.length !== KEY_BYTES) throw new Error(`the server secret key must be ${KEY_BYTES} bytes`);
  const aad = (userId: number, column: SealedColumn) => Buffer.from(`kuvert:${column}:${userId}`, 'utf8');
  return {
    seal(userId, column, plaintext) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(aad(userId, column));
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return PREFIX + Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64url');
    },
    open(userId, column, stored) {
      if (!isSealed(stored)) throw new Error('not a sealed value');
      const raw = Buffer.from(stored.slice(PREFIX.length), 'base64url');
      if (raw.length < IV_BYTES + TAG_BYTES) throw new Error('sealed value too short');
      const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES));
      decipher.setAAD(aad(userId, column));
      decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES));
      return Buffer.concat([decipher.update(raw.subarray(IV_BYTES, raw.length - TAG_BYTES)), decipher.final()]).toString('utf8');
    },
  };
}

/**
 * The configured key, else the key file in the data folder (created 0600 when missing; a
 * second server starting at the same moment reads the file the first one wrote).
 */
export async function loadServerSecretKey(dataDir: string, configured: string | undefined): Promise<Uint8Array> {
  if (configured) return Buffer.from(configured, 'base64');
  const path = join(dataDir, SECRET_KEY_FILE);
  await mkdir(dataDir, { recursive: true });
  try {
    const handle = await open(path, 'wx', 0o600);
    try {
      await handle.writeFile(randomBytes(KEY_BYTES).toString('base64') + '\n');
    } finally {
      await handle.close();
    }
    // The umask may have taken bits away, never added: still make it explicit.
    await chmod(path, 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const key = Buffer.from((await readFile(path, 'utf8')).trim(), 'base64');
  if (key.length !== KEY_BYTES) throw new Error(`${path} does not hold a ${KEY_BYTES}-byte key in base64`);
  return key;
}

/** The cluster fact naming the installation's key (server/README.md, "What a server keeps in memory"). */
export const SECRET_KEY_FACT = 'secret-key-fingerprint';

/** The one line a server with another key stops with. */
export const SECRET_KEY_MISMATCH =
  'KUVERT_SECRET_KEY: this server\'s key (KUVERT_SECRET_KEY, else KUVERT_DATA_DIR/secret.key) is not the key this database\'s two-factor secrets are sealed with; give every server the same KUVERT_SECRET_KEY (server/README.md, "What a server keeps in memory, and why that is safe")';

/** One-way: tells keys apart without revealing them (an HMAC under the key of a fixed text). */
export const secretKeyFingerprint = (key: Uint8Array) => createHmac('sha256', key).update('kuvert secret key fingerprint v1').digest('hex').slice(0, 32);

/**
 * Every server on one database must seal with the same key: a server with another one (its own
 * data folder, no shared `KUVERT_SECRET_KEY`) would fail the two-factor sign-ins that reach it and
 * seal secrets the others cannot open. The first start records the key's fingerprint; a server
 * with another key gets the answer `false` (the caller refuses to start).
 */
export async function isInstallationSecretKey(db: Kysely<Database>, key: Uint8Array): Promise<boolean> {
  const mine = secretKeyFingerprint(key);
  return (await recordClusterFact(db, SECRET_KEY_FACT, mine)) === mine;
}

/**
 * Seals every TOTP secret still stored in plaintext (rows from before encryption at rest).
 * Idempotent and safe with several servers: each update only applies while the row still
 * holds the plaintext it read.
 */
export async function sealPlaintextTotpSecrets(db: Kysely<Database>, box: SecretBox): Promise<number> {
  const rows = await db
    .selectFrom('users')
    .select(['id', 'totp_secret', 'totp_pending_secret'])
    .where((eb) => eb.or([eb('totp_secret', 'is not', null), eb('totp_pending_secret', 'is not', null)]))
    .execute();
  let sealed = 0;
  for (const row of rows) {
    for (const column of ['totp_secret', 'totp_pending_secret'] as const) {
      const value = row[column];
      if (value === null || isSealed(value)) continue;
      const result = await db
        .updateTable('users')
        .set({ [column]: box.seal(row.id, column, value) })
        .where('id', '=', row.id)
        .where(column, '=', value)
        .executeTakeFirst();
      sealed += Number(result.numUpdatedRows);
    }
  }
  return sealed;
}
