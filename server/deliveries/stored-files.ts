// The storage report's running totals for secure mails (server/reports/storage-totals.ts,
// migration 0029): a committed file counts while `delivery_files.stored` is 1. Each change flips
// that flag with a guarded update and moves the totals by what it flipped, in one transaction —
// so a delivery the sweep purges while its sender deletes it is subtracted once.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { addStored, removeStored } from '../reports/storage-totals';

const AREA = 'secureMails';

/** Commits an uploading file (once: false when it was committed already) and counts its bytes. */
export async function commitStoredFile(db: Kysely<Database>, file: { id: number; size: number }, now: number): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const updated = await trx
      .updateTable('delivery_files')
      .set({ status: 'committed', committed_at: now, stored: 1 })
      .where('id', '=', file.id)
      .where('status', '=', 'uploading')
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== 1) return false;
    await addStored(trx, AREA, 1, Number(file.size), now);
    return true;
  });
}

/** Deletes a file row; its bytes stop counting if they did. Call inside the caller's transaction. */
export async function deleteStoredFile(trx: Kysely<Database>, fileId: number): Promise<void> {
  const gone = await trx.deleteFrom('delivery_files').where('id', '=', fileId).returning(['stored', 'size']).executeTakeFirst();
  if (gone?.stored === 1) await removeStored(trx, AREA, 1, Number(gone.size));
}

/** The files of these deliveries stop counting (their bytes are going). Call inside the caller's transaction. */
export async function releaseStoredFiles(trx: Kysely<Database>, owner: { deliveryId: number } | { senderId: number }): Promise<void> {
  let query = trx.updateTable('delivery_files').set({ stored: 0 }).where('stored', '=', 1);
  query =
    'deliveryId' in owner
      ? query.where('delivery_id', '=', owner.deliveryId)
      : query.where('delivery_id', 'in', (eb) => eb.selectFrom('deliveries').select('id').where('sender_id', '=', owner.senderId));
  const released = await query.returning('size').execute();
  await removeStored(trx, AREA, released.length, released.reduce((sum, f) => sum + Number(f.size), 0));
}
