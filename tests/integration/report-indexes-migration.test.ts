// Migration 0025 on a database that already holds deliveries: `sent_day` and `recipient_count` are
// back-filled for every delivery that was sent (also one deleted later) and stay null for drafts;
// the reports count them. Down and up again work (SQLite and PostgreSQL).
import { randomUUID } from 'node:crypto';
import { deliveriesReport } from '@server/reports/queries';
import { SECURITY_LEVELS } from '@shared/contract/constants';
import { expect, it } from 'vitest';
import { insertSender, withMigrationDatabase } from './migration-helpers';

const DAY = 86_400_000;
const SENT_AT = Date.parse('2025-05-06T21:30:00Z');

it('0025-report-indexes back-fills sent_day and recipient_count of sent deliveries, and rolls back', async () => {
  await withMigrationDatabase(async ({ db, migrator }) => {
    expect((await migrator.migrateTo('0021-contact-pins')).error).toBeUndefined();
    const user = await insertSender(db);
    const delivery = async (status: string, sentAt: number | null, recipients: number) => {
      const { id } = await db
        .insertInto('deliveries')
        .values({ uuid: randomUUID(), sender_id: user.id, status, subject: status, body: '', security_level: SECURITY_LEVELS.LEVEL_2, language: 'en', validity_days: null, expires_at: null, review_state: 'notReviewed', manifest: null, created_at: 1, sent_at: sentAt, deleted_at: null, purged_at: null } as never)
        .returning('id')
        .executeTakeFirstOrThrow();
      for (let k = 0; k < recipients; k++) {
        await db
          .insertInto('delivery_recipients')
          .values({ uuid: randomUUID(), delivery_id: id, email: `r${k}@example.test`, kind: k === 0 ? 'recipient' : 'additional', token_hash: null, notified_at: null, downloaded_at: null, decrypted_at: null, removed_at: null, listed_at: null, created_at: 1 } as never)
          .execute();
      }
      return id;
    };
    const ids = { sent: await delivery('sent', SENT_AT, 3), deleted: await delivery('deleted', SENT_AT + DAY, 1), draft: await delivery('draft', null, 2) };

    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    const filled = async () =>
      Object.fromEntries(
        (await db.selectFrom('deliveries').select(['id', 'sent_day', 'recipient_count']).execute()).map((r) => [
          r.id,
          [r.sent_day === null ? null : Number(r.sent_day), r.recipient_count === null ? null : Number(r.recipient_count)],
        ]),
      );
    const day = Math.floor(SENT_AT / DAY);
    expect(await filled()).toEqual({ [ids.sent]: [day, 3], [ids.deleted]: [day + 1, 1], [ids.draft]: [null, null] });
    expect((await deliveriesReport(db, { from: '2025-05-06', to: '2025-05-07' })).totals).toEqual({ sent: 2, received: 4 });

    expect((await migrator.migrateTo('0021-contact-pins')).error).toBeUndefined();
    await expect(db.selectFrom('deliveries').select('sent_day').execute()).rejects.toThrow();
    await expect(db.selectFrom('user_active_days').select('day').execute()).rejects.toThrow();
    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    expect((await filled())[ids.sent]).toEqual([day, 3]);
  });
});
