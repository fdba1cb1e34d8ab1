import type { FastifyInstance } from 'fastify';
import { releaseStoredFiles } from './stored-files';

/** The sweep runs this often; expiry is checked on every read as well, so this only frees space. */
const SWEEP_INTERVAL_MS = 10 * 60_000;
/**
 * Drafts untouched this long are dropped with their parts: long enough for a resumable
 * upload paused over a long weekend, short enough that abandoned drafts do not hold quota.
 */
export const DRAFT_MAX_AGE_MS = 7 * 86_400_000;
/** Deliveries handled per sweep, so one sweep never holds the database long. */
const SWEEP_BATCH = 200;

/**
 * Removes the bytes of expired deliveries (the row stays: lists show them as expired) and
 * drops abandoned drafts. Idempotent and safe with several servers: each step is
 * "update where still in the old state", then the bytes go.
 */
export async function sweepDeliveries(app: FastifyInstance, now = Date.now()): Promise<{ expired: number; drafts: number }> {
  const expired = await app.db
    .selectFrom('deliveries')
    .select(['id', 'uuid'])
    .where('status', '=', 'sent')
    .where('expires_at', '<=', now)
    .where('purged_at', 'is', null)
    .limit(SWEEP_BATCH)
    .execute();
  for (const d of expired) {
    const claimed = await app.db.transaction().execute(async (trx) => {
      const result = await trx.updateTable('deliveries').set({ purged_at: now }).where('id', '=', d.id).where('purged_at', 'is', null).executeTakeFirst();
      if (Number(result.numUpdatedRows) === 1) await releaseStoredFiles(trx, { deliveryId: d.id });
      return result;
    });
    if (Number(claimed.numUpdatedRows) === 1) await app.blobs.deletePrefix(`deliveries/${d.uuid}`);
  }
  const drafts = await app.db
    .selectFrom('deliveries')
    .select(['id', 'uuid'])
    .where('status', '=', 'draft')
    .where('created_at', '<=', now - DRAFT_MAX_AGE_MS)
    .limit(SWEEP_BATCH)
    .execute();
  for (const d of drafts) {
    const claimed = await app.db.transaction().execute(async (trx) => {
      const result = await trx.updateTable('deliveries').set({ status: 'deleted', deleted_at: now }).where('id', '=', d.id).where('status', '=', 'draft').executeTakeFirst();
      if (Number(result.numUpdatedRows) === 1) await releaseStoredFiles(trx, { deliveryId: d.id });
      return result;
    });
    if (Number(claimed.numUpdatedRows) === 1) await app.blobs.deletePrefix(`deliveries/${d.uuid}`);
  }
  return { expired: expired.length, drafts: drafts.length };
}

/** Temp blobs of part uploads a crash cut off (never visible; this frees their space). */
async function sweepTemporaryBlobs(app: FastifyInstance): Promise<void> {
  try {
    const removed = await app.blobs.sweepTemporaries();
    if (removed > 0) app.log.info({ removed }, 'removed temp blobs of interrupted uploads');
  } catch (err) {
    app.log.warn({ err }, 'temp blob sweep failed');
  }
}

/** Starts the periodic sweep for the app's lifetime; right after a start, the leftovers of a crash go at once. */
export function scheduleDeliverySweep(app: FastifyInstance): void {
  // In the background: a big blob folder must not delay the start.
  app.addHook('onReady', async () => void sweepTemporaryBlobs(app));
  const timer = setInterval(() => {
    sweepDeliveries(app).catch((err: unknown) => app.log.warn({ err }, 'delivery sweep failed'));
    void sweepTemporaryBlobs(app);
  }, SWEEP_INTERVAL_MS);
  timer.unref();
  app.addHook('onClose', async () => clearInterval(timer));
}
