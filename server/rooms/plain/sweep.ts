// House-keeping of room files, one leased periodic job across all servers (like the delivery
// sweep): uploads abandoned in `uploading` go with their parts, and versions replaced more than
// 30 days ago (SPEC §7) with their bytes. Idempotent: rows go in one statement each, bytes after.
import type { FastifyInstance } from 'fastify';
import { periodicJob, type JobKind } from '../../jobs/job-queue';
import { removeStored } from '../../reports/storage-totals';
import { VERSION_MAX_AGE_MS } from './versions';

export const ROOM_SWEEP_JOB = 'room-sweep';
export const ROOM_SWEEP_INTERVAL_MS = 60 * 60_000;
/** An upload with no part written for this long is abandoned (a resumable upload may pause over a long weekend, as a draft). */
export const ROOM_UPLOAD_MAX_AGE_MS = 7 * 86_400_000;
/** Rows handled per run, so one run never holds the database long. */
const SWEEP_BATCH = 200;

export async function sweepRoomFiles(app: FastifyInstance, now = Date.now()): Promise<{ uploads: number; versions: number }> {
  const cutoff = now - ROOM_UPLOAD_MAX_AGE_MS;
  const candidates = await app.db
    .selectFrom('room_files')
    .leftJoin('room_file_parts', 'room_file_parts.file_id', 'room_files.id')
    .select(['room_files.id', 'room_files.blob_prefix'])
    .select((eb) => eb.fn.max('room_file_parts.created_at').as('last_part'))
    .where('room_files.state', '=', 'uploading')
    .where('room_files.updated_at', '<=', cutoff)
    .groupBy(['room_files.id', 'room_files.blob_prefix'])
    .limit(SWEEP_BATCH)
    .execute();
  let uploads = 0;
  for (const file of candidates.filter((c) => c.last_part === null || Number(c.last_part) <= cutoff)) {
    // Only while still uploading (a commit may win the race); the parts' rows cascade.
    const removed = await app.db.deleteFrom('room_files').where('id', '=', file.id).where('state', '=', 'uploading').executeTakeFirst();
    if (Number(removed.numDeletedRows) !== 1) continue;
    await app.blobs.deletePrefix(file.blob_prefix);
    uploads++;
  }
  const old = await app.db
    .selectFrom('room_file_versions')
    .select(['id', 'blob_prefix', 'size'])
    .where('replaced_at', '<=', now - VERSION_MAX_AGE_MS)
    .limit(SWEEP_BATCH)
    .execute();
  let versions = 0;
  for (const version of old) {
    const gone = await app.db.transaction().execute(async (trx) => {
      const removed = await trx.deleteFrom('room_file_versions').where('id', '=', version.id).executeTakeFirst();
      if (Number(removed.numDeletedRows) === 1) await removeStored(trx, 'dataRooms', 1, Number(version.size));
      return Number(removed.numDeletedRows) === 1;
    });
    if (!gone) continue;
    await app.blobs.deletePrefix(version.blob_prefix);
    versions++;
  }
  return { uploads, versions };
}

/** The periodic kind for the app's job runner. */
export const roomSweepJobs = (app: FastifyInstance): Record<string, JobKind<never>> => ({
  [ROOM_SWEEP_JOB]: periodicJob(ROOM_SWEEP_INTERVAL_MS, async () => void (await sweepRoomFiles(app))),
});
