// Migration 0029 on a database that already holds deliveries and downloads: every `downloaded`
// activity row gets its delivery's level and its UTC day (other kinds stay null), so the downloads
// report counts the old rows as before; the storage totals start as the sums of the files. Down and up again work (SQLite and PostgreSQL).
import { randomUUID } from 'node:crypto';
import { activeUsersReport, downloadsReport, storageReport } from '@server/reports/queries';
import { SECURITY_LEVELS } from '@shared/contract/constants';
import { expect, it } from 'vitest';
import { insertSender, withMigrationDatabase } from './migration-helpers';

const DAY = 86_400_000;
const SENT_AT = Date.parse('2025-05-06T21:30:00Z');

it('0029-report-totals back-fills the level and day of download rows and the storage totals, and rolls back', async () => {
  await withMigrationDatabase(async ({ db, migrator }) => {
    expect((await migrator.migrateTo('0025-report-indexes')).error).toBeUndefined();
    const user = await insertSender(db);
    const delivery = async (level: number) => {
      const { id } = await db
        .insertInto('deliveries')
        .values({ uuid: randomUUID(), sender_id: user.id, status: 'sent', subject: 's', body: '', security_level: level, language: 'en', validity_days: null, expires_at: null, review_state: 'notReviewed', manifest: null, created_at: 1, sent_at: SENT_AT, deleted_at: null, purged_at: null, sent_day: Math.floor(SENT_AT / DAY), recipient_count: 1 } as never)
        .returning('id')
        .executeTakeFirstOrThrow();
      const recipient = await db
        .insertInto('delivery_recipients')
        .values({ uuid: randomUUID(), delivery_id: id, email: `r${id}@example.test`, kind: 'recipient', token_hash: null, notified_at: null, downloaded_at: null, decrypted_at: null, removed_at: null, listed_at: null, created_at: 1 } as never)
        .returning('id')
        .executeTakeFirstOrThrow();
      return { id, recipientId: recipient.id };
    };
    const low = await delivery(SECURITY_LEVELS.LEVEL_1);
    const high = await delivery(SECURITY_LEVELS.LEVEL_4);
    const row = (d: { id: number; recipientId: number }, kind: string, at: number) =>
      ({ delivery_id: d.id, kind, actor: 'r@example.test', recipient_id: d.recipientId, detail: 'f.pdf', created_at: at }) as never;
    await db
      .insertInto('delivery_activity')
      .values([row(low, 'downloaded', SENT_AT + 1000), row(low, 'downloaded', SENT_AT + 2000), row(high, 'downloaded', SENT_AT + DAY), row(high, 'notified', SENT_AT)])
      .execute();

    const file = (deliveryId: number, size: number, status: string) =>
      ({ uuid: randomUUID(), delivery_id: deliveryId, name: 'f.pdf', size, mime_type: 'application/pdf', part_size: 4_198_400, part_count: 1, status, encrypted: 0, header_hash: null, created_at: SENT_AT, committed_at: status === 'committed' ? SENT_AT : null }) as never;
    await db.insertInto('delivery_files').values([file(low.id, 500, 'committed'), file(high.id, 700, 'committed'), file(high.id, 900, 'uploading')]).execute();
    const purged = await delivery(SECURITY_LEVELS.LEVEL_2);
    await db.insertInto('delivery_files').values(file(purged.id, 300, 'committed')).execute();
    await db.updateTable('deliveries').set({ purged_at: SENT_AT + 90 * DAY }).where('id', '=', purged.id).execute();

    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    // Stored now: the committed files of the deliveries not purged; added that day: every committed file.
    expect((await storageReport(db, { from: '2025-05-06', to: '2025-05-06' })).rows).toEqual([
      { area: 'secureMails', files: 2, bytes: 1200, filesAdded: 3, bytesAdded: 1500 },
      { area: 'dataRooms', files: 0, bytes: 0, filesAdded: 0, bytesAdded: 0 },
    ]);
    // Senders back-filled from the sent deliveries: one sender on that day.
    expect((await activeUsersReport(db, { from: '2025-05-06', to: '2025-05-06' })).rows).toEqual([{ date: '2025-05-06', activeUsers: 0, senders: 1 }]);
    const filled = async () =>
      (await db.selectFrom('delivery_activity').select(['kind', 'security_level', 'day']).orderBy('id').execute()).map((r) => [
        r.kind,
        r.security_level === null ? null : Number(r.security_level),
        r.day === null ? null : Number(r.day),
      ]);
    const day = Math.floor(SENT_AT / DAY);
    expect(await filled()).toEqual([
      ['downloaded', SECURITY_LEVELS.LEVEL_1, day],
      ['downloaded', SECURITY_LEVELS.LEVEL_1, day],
      ['downloaded', SECURITY_LEVELS.LEVEL_4, day + 1],
      ['notified', null, null],
    ]);
    expect((await downloadsReport(db, { from: '2025-05-06', to: '2025-05-07' })).rows).toEqual([
      { date: '2025-05-06', level: SECURITY_LEVELS.LEVEL_1, downloads: 2, recipients: 1 },
      { date: '2025-05-07', level: SECURITY_LEVELS.LEVEL_4, downloads: 1, recipients: 1 },
    ]);

    expect((await migrator.migrateTo('0025-report-indexes')).error).toBeUndefined();
    await expect(db.selectFrom('delivery_activity').select('day').execute()).rejects.toThrow();
    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    expect((await filled())[2]).toEqual(['downloaded', SECURITY_LEVELS.LEVEL_4, day + 1]);
  });
});
