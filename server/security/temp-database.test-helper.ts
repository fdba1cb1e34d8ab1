import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, type DatabaseHandle } from '../db/database';
import { migrateToLatest } from '../db/migrate';

/** A migrated SQLite database in a fresh temp folder, for the unit tests of this folder. */
export async function openTempDatabase(): Promise<DatabaseHandle & { dispose(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'kuvert-security-'));
  const handle = await openDatabase({ dataDir: dir });
  await migrateToLatest(handle.db);
  return {
    ...handle,
    async dispose() {
      await handle.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Inserts a bare user row and returns its id (the escalation tables reference users). */
export async function insertUser(handle: DatabaseHandle, name = 'alice'): Promise<number> {
  const now = Date.now();
  const row = await handle.db
    .insertInto('users')
    .values({
      uuid: `uuid-${name}-${now}`,
      username: name,
      email: `${name}@example.test`,
      first_name: '',
      last_name: '',
      password_hash: 'x',
      roles: '[]',
      language: 'en',
      disabled: 0,
      email_verified: 0,
      totp_secret: null,
      totp_pending_secret: null,
      totp_required: 0,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}
