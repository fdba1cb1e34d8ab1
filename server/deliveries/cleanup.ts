import type { FastifyInstance } from 'fastify';
import { periodicJob, type JobKind } from '../jobs/job-queue';
import { releaseStoredFiles } from './stored-files';

/** The sweep runs this often (once across all servers); expiry is checked on every read as well, so this only frees space. */
export const SWEEP_INTERVAL_MS = 10 * 60_000;
/** Its kind on the database job queue. */
export const DELIVERY_SWEEP_JOB = 'delivery-sweep';
/** Temp blobs of cut-off uploads are looked for this often, by each server in its own blob store view. */
const TEMP_SWEEP_INTERVAL_MS = 10 * 60_000;
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

/**
 * The expiry sweep as a periodic job on the database job queue: with several servers on one
 * database it runs once per SWEEP_INTERVAL_MS in total (the lease picks the server), and a
 * server dying mid-sweep hands it to another when the lease runs out.
 */
export function deliverySweepJobs(app: FastifyInstance): Record<string, JobKind<never>> {
  return {
    [DELIVERY_SWEEP_JOB]: periodicJob(SWEEP_INTERVAL_MS, async () => {
      const swept = await sweepDeliveries(app);
      app.log.info({ job: DELIVERY_SWEEP_JOB, ...swept }, 'delivery sweep ran');
    }),
  };
}

/**
 * Temp blobs stay a per-server timer: with the local store each server may have its own folder,
 * and the sweep only removes temps older than any upload can be (`isAbandoned`), so running it on
 * every server (and twice on a shared store) is harmless. Right after a start, a crash's leftovers go at once.
 */
export function scheduleTemporaryBlobSweep(app: FastifyInstance): void {
  // In the background: a big blob folder must not delay the start.
  app.addHook('onReady', async () => void sweepTemporaryBlobs(app));
  const timer = setInterval(() => void sweepTemporaryBlobs(app), TEMP_SWEEP_INTERVAL_MS);
  timer.unref();
  app.addHook('onClose', async () => clearInterval(timer));
}
