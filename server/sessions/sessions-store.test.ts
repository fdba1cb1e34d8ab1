import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../db/database';
import { migrateToLatest } from '../db/migrate';
import { createUsersRepository } from '../users/users-repository';
import { createSessionsStore, hashSessionToken, SESSION_ABSOLUTE_TIMEOUT_MS, SESSION_IDLE_TIMEOUT_MS } from './sessions-store';

let dir: string;
let handle: DatabaseHandle;
let clock: number;
let userId: number;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kuvert-sessions-'));
  handle = await openDatabase({ dataDir: dir });
  await migrateToLatest(handle.db);
  clock = 1_000_000;
  const user = await createUsersRepository(handle.db).create({ username: 'u', email: 'u@example.test', passwordHash: 'x', roles: [] });
  userId = user.id;
});
afterEach(async () => {
  await handle.close();
  await rm(dir, { recursive: true, force: true });
});

// Both ways of the session look-up: Kysely's (PostgreSQL, and SQLite inside a transaction) and the
// hot read prepared once on the SQLite connection (issue 35 §4).
describe.each([
  { way: 'Kysely', hot: false },
  { way: 'hot read', hot: true },
])('sessions store ($way)', ({ hot }) => {
  const storeOf = (now: () => number) => createSessionsStore(handle.db, now, hot ? handle.hotRead : undefined);

  it('stores only the hash of the token', async () => {
    const store = storeOf(() => clock);
    const { token } = await store.create(userId);
    const rows = await handle.db.selectFrom('sessions').select('id').execute();
    expect(rows).toEqual([{ id: hashSessionToken(token) }]);
    expect(JSON.stringify(rows)).not.toContain(token);
  });

  it('slides the idle expiry while used and ends after 30 idle minutes', async () => {
    const store = storeOf(() => clock);
    const { token } = await store.create(userId);
    for (let i = 0; i < 5; i++) {
      clock += SESSION_IDLE_TIMEOUT_MS - 60_000;
      expect(await store.resolveWithUser(token)).toBeDefined();
    }
    clock += SESSION_IDLE_TIMEOUT_MS;
    expect(await store.resolveWithUser(token)).toBeUndefined();
    expect(await handle.db.selectFrom('sessions').selectAll().execute()).toEqual([]);
  });

  it('ends after 12 hours whatever the activity', async () => {
    const store = storeOf(() => clock);
    const { token } = await store.create(userId);
    const end = clock + SESSION_ABSOLUTE_TIMEOUT_MS;
    while (clock + 20 * 60_000 < end) {
      clock += 20 * 60_000;
      expect(await store.resolve(token)).toBeDefined();
    }
    clock = end;
    expect(await store.resolve(token)).toBeUndefined();
  });

  it('returns the user with the session and forgets deleted sessions', async () => {
    const store = storeOf(() => clock);
    const a = await store.create(userId);
    const b = await store.create(userId);
    expect((await store.resolveWithUser(a.token))?.user.email).toBe('u@example.test');
    await store.delete(a.token);
    expect(await store.resolveWithUser(a.token)).toBeUndefined();
    await store.deleteAllForUser(userId);
    expect(await store.resolveWithUser(b.token)).toBeUndefined();
    expect(await store.resolveWithUser('')).toBeUndefined();
  });

  it('reads every user column, and a change to the user or the session at the next request (nothing cached)', async () => {
    const store = storeOf(() => clock);
    const { token, session } = await store.create(userId);
    // Distinct values in the nullable columns too, so a column read into the wrong key shows.
    await handle.db.updateTable('users').set({ totp_pending_secret: 'p', terms_accepted_version: 3, terms_accepted_at: 4, storage_quota: 5, first_name: 'F', last_name: 'L' }).execute();
    const user = await handle.db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirstOrThrow();
    expect(await store.resolveWithUser(token)).toEqual({ session, user });
    await handle.db.updateTable('users').set({ roles: '["ROLE_ADMIN"]', disabled: 1, totp_secret: 's' }).where('id', '=', userId).execute();
    expect((await store.resolveWithUser(token))?.user).toMatchObject({ roles: '["ROLE_ADMIN"]', disabled: 1, totp_secret: 's' });
    await handle.db.updateTable('sessions').set({ expires_at: clock }).execute();
    expect(await store.resolveWithUser(token)).toBeUndefined();
  });

  it('writes last-seen at most every 15 s; a fresh session answers without a promise on the hot read', async () => {
    const store = storeOf(() => clock);
    const { token } = await store.create(userId);
    const lastSeen = async () => (await handle.db.selectFrom('sessions').select('last_seen_at').executeTakeFirstOrThrow()).last_seen_at;
    clock += 14_000;
    const fresh = store.resolveWithUser(token);
    expect(fresh instanceof Promise).toBe(!hot);
    expect(await fresh).toBeDefined();
    expect(await lastSeen()).toBe(1_000_000);
    clock += 1_000;
    expect((await store.resolveWithUser(token))?.session.last_seen_at).toBe(clock);
    expect(await lastSeen()).toBe(clock);
  });

  it('does not read what an open transaction has not committed: waits for it', async () => {
    const store = storeOf(() => clock);
    const a = await store.create(userId);
    const b = await store.create(userId);
    let inside!: ReturnType<typeof store.resolveWithUser>;
    await handle.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('sessions').where('id', '=', hashSessionToken(a.token)).execute();
      inside = store.resolveWithUser(a.token);
      expect(inside).toBeInstanceOf(Promise);
    });
    expect(await inside).toBeUndefined();
    let rolledBack!: ReturnType<typeof store.resolveWithUser>;
    await expect(
      handle.db.transaction().execute(async (trx) => {
        await trx.deleteFrom('sessions').where('id', '=', hashSessionToken(b.token)).execute();
        rolledBack = store.resolveWithUser(b.token);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect((await rolledBack)?.user.id).toBe(userId);
  });

  it('purges expired sessions', async () => {
    const store = storeOf(() => clock);
    await store.create(userId);
    clock += SESSION_IDLE_TIMEOUT_MS + 1;
    await store.create(userId);
    expect(await store.purgeExpired()).toBe(1);
  });
});
