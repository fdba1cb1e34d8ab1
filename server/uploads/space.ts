// Storage space (SPEC §3 storage quota): one global quota (`kuvert.storage.globalQuota`, 0 = none)
// over everything stored — deliveries and data-room files alike — and the disk's free space; the
// quotas per room and per user are in quotas.ts.
import { DELIVERY_SETTING_KEYS } from '@shared/contract/deliveries';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { HttpError } from '../core/http-error';
import { quotaHeadroom, type QuotaCharge } from './quotas';

const total = sql<number>`0`;

/** Bytes the store may still take: the quota (if set) and the disk, minus what announced uploads still need. */
export async function spaceAvailable(app: FastifyInstance): Promise<number> {
  const quota = Number(await app.settings.get<number>(DELIVERY_SETTING_KEYS.globalQuota));
  const deliveries = await app.db
    .selectFrom('delivery_files')
    .innerJoin('deliveries', 'deliveries.id', 'delivery_files.delivery_id')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('delivery_files.size'), total).as('total'))
    .where('deliveries.status', '!=', 'deleted')
    .where('deliveries.purged_at', 'is', null)
    .executeTakeFirstOrThrow();
  // Room files in the trash still hold their bytes until purged (deleted rows are gone then).
  const rooms = await app.db
    .selectFrom('room_files')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('room_files.size'), total).as('total'))
    .executeTakeFirstOrThrow();
  // Earlier versions of room files keep their bytes too (migration 0032).
  const versions = await app.db
    .selectFrom('room_file_versions')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('room_file_versions.size'), total).as('total'))
    .executeTakeFirstOrThrow();
  const used = Number(deliveries.total) + Number(rooms.total) + Number(versions.total);
  let available = quota > 0 ? quota - used : Number.MAX_SAFE_INTEGER;
  const free = await app.blobs.freeSpace();
  if (free !== null) {
    // Announced but not yet written bytes are promised already.
    const pending = await app.db
      .selectFrom('delivery_files')
      .innerJoin('deliveries', 'deliveries.id', 'delivery_files.delivery_id')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('delivery_files.size'), total).as('total'))
      .where('deliveries.status', '!=', 'deleted')
      .where('delivery_files.status', '=', 'uploading')
      .executeTakeFirstOrThrow();
    const written = await app.db
      .selectFrom('delivery_file_parts')
      .innerJoin('delivery_files', 'delivery_files.id', 'delivery_file_parts.file_id')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('delivery_file_parts.size'), total).as('total'))
      .where('delivery_files.status', '=', 'uploading')
      .executeTakeFirstOrThrow();
    const roomPending = await app.db
      .selectFrom('room_files')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('room_files.size'), total).as('total'))
      .where('state', '=', 'uploading')
      .executeTakeFirstOrThrow();
    const roomWritten = await app.db
      .selectFrom('room_file_parts')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('room_file_parts.size'), total).as('total'))
      .executeTakeFirstOrThrow();
    const promised = Number(pending.total) - Number(written.total) + Number(roomPending.total) - Number(roomWritten.total);
    available = Math.min(available, free - Math.max(0, promised));
  }
  return Math.max(0, available);
}

/**
 * 507 `GlobalQuotaReachedException` with the figures (SPEC §8) when `required` bytes do not fit: the
 * global quota and the disk, then the room's and the user's quota of `charge` (uploads/quotas.ts;
 * `metadata.quota` names which of those two refused).
 */
export async function checkSpace(app: FastifyInstance, required: number, charge: QuotaCharge = {}): Promise<void> {
  const available = await spaceAvailable(app);
  if (required > available) {
    throw new HttpError(507, 'GlobalQuotaReachedException', 'The server has no space left for this file', { spaceAvailable: available, spaceRequired: required });
  }
  const headroom = await quotaHeadroom(app, charge);
  if (headroom && required > headroom.available) {
    const message = headroom.scope === 'room' ? "The room's storage quota has no space left for this file" : 'Your storage quota has no space left for this file';
    throw new HttpError(507, 'GlobalQuotaReachedException', message, { spaceAvailable: headroom.available, spaceRequired: required, quota: headroom.scope });
  }
}
