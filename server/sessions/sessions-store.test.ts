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

describe('sessions store', () => {
  it('stores only the hash of the token', async () => {
    const store = createSessionsStore(handle.db, () => clock);
    const { token } = await store.create(userId);
    const rows = await handle.db.selectFrom('sessions').select('id').execute();
    expect(rows).toEqual([{ id: hashSessionToken(token) }]);
    expect(JSON.stringify(rows)).not.toContain(token);
  });

  it('slides the idle expiry while used and ends after 30 idle minutes', async () => {
    const store = createSessionsStore(handle.db, () => clock);
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
    const store = createSessionsStore(handle.db, () => clock);
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
    const store = createSessionsStore(handle.db, () => clock);
    const a = await store.create(userId);
    const b = await store.create(userId);
    expect((await store.resolveWithUser(a.token))?.user.email).toBe('u@example.test');
    await store.delete(a.token);
    expect(await store.resolveWithUser(a.token)).toBeUndefined();
    await store.deleteAllForUser(userId);
    expect(await store.resolveWithUser(b.token)).toBeUndefined();
    expect(await store.resolveWithUser('')).toBeUndefined();
  });

  it('purges expired sessions', async () => {
    const store = createSessionsStore(handle.db, () => clock);
    await store.create(userId);
    clock += SESSION_IDLE_TIMEOUT_MS + 1;
    await store.create(userId);
    expect(await store.purgeExpired()).toBe(1);
  });
});
