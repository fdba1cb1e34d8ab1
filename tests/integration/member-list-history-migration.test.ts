// Migration 0062 on a database that already holds signed member lists (issue 28 §2, shared/crypto/
// README.md section 7 "Roles at signing time"): every room's latest list becomes version N of its
// history, so `GET …/e2e/member-list?version=N` answers it. SQLite and PostgreSQL alike.
import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { insertSender, withMigrationDatabase } from './migration-helpers';

it('0062-room-member-list-history keeps the stored latest list of every room as its first history row', async () => {
  await withMigrationDatabase(async ({ db, migrator }) => {
    expect((await migrator.migrateTo('0059-trust-networks')).error).toBeUndefined();
    const user = await insertSender(db);
    const room = async () =>
      (await db.insertInto('data_rooms').values({ uuid: randomUUID(), name: 'r1.sealed', encrypted: 1, created_by: user.id, created_at: 1, updated_at: 1 } as never).returning('id').executeTakeFirstOrThrow()).id;
    const listed = await room();
    const unlisted = await room();
    await db.insertInto('room_e2e_member_lists').values({ room_id: listed, version: 3, signed_by: user.id, signed_list: '{"list":{"version":3}}', created_at: 7 }).execute();

    expect((await migrator.migrateTo('0062-room-member-list-history')).error).toBeUndefined();
    const history = await db.selectFrom('room_e2e_member_list_versions').selectAll().execute();
    expect(history.map((h) => ({ ...h, created_at: Number(h.created_at) }))).toEqual([{ room_id: listed, version: 3, signed_by: user.id, signed_list: '{"list":{"version":3}}', created_at: 7 }]);
    expect(history.some((h) => h.room_id === unlisted)).toBe(false);
    // One row per room and version.
    await expect(db.insertInto('room_e2e_member_list_versions').values({ room_id: listed, version: 3, signed_by: null, signed_list: '{}', created_at: 8 }).execute()).rejects.toThrow();
  });
});
