// Migration 0015 on a database that already holds deliveries: `listed_at` is filled from the
// delivery's sent time for rows still in an inbox, and stays null for drafts, deliveries the
// sender deleted and rows the recipient removed. Down and up again work (SQLite and PostgreSQL).
import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { insertSender, withMigrationDatabase } from './migration-helpers';

it('0015-list-paging fills listed_at for what is in an inbox, and rolls back', async () => {
  await withMigrationDatabase(async ({ db, migrator }) => {
    expect((await migrator.migrateTo('0014-addin-sessions')).error).toBeUndefined();
    const user = await insertSender(db);
    const delivery = async (status: string, sentAt: number | null) =>
      (
        await db
          .insertInto('deliveries')
          .values({ uuid: randomUUID(), sender_id: user.id, status, subject: status, body: '', security_level: 10, language: 'en', validity_days: null, expires_at: null, review_state: 'notReviewed', manifest: null, created_at: 1, sent_at: sentAt, deleted_at: null, purged_at: null })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    const recipient = async (deliveryId: number, email: string, removedAt: number | null = null) =>
      (
        await db
          .insertInto('delivery_recipients')
          .values({ uuid: randomUUID(), delivery_id: deliveryId, email, kind: 'recipient', token_hash: null, notified_at: null, downloaded_at: null, decrypted_at: null, removed_at: removedAt, created_at: 1 } as never)
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    const sent = await delivery('sent', 5000);
    const rows = {
      listed: await recipient(sent, 'a@example.test'),
      removed: await recipient(sent, 'b@example.test', 6000),
      draft: await recipient(await delivery('draft', null), 'a@example.test'),
      deleted: await recipient(await delivery('deleted', 4000), 'a@example.test'),
    };
    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    const listed = async () => Object.fromEntries((await db.selectFrom('delivery_recipients').select(['id', 'listed_at']).execute()).map((r) => [r.id, r.listed_at === null ? null : Number(r.listed_at)]));
    expect(await listed()).toEqual({ [rows.listed]: 5000, [rows.removed]: null, [rows.draft]: null, [rows.deleted]: null });

    expect((await migrator.migrateTo('0014-addin-sessions')).error).toBeUndefined();
    await expect(db.selectFrom('delivery_recipients').select('listed_at').execute()).rejects.toThrow();
    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    expect((await listed())[rows.listed]).toBe(5000);
  });
});
