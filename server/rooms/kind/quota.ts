// The storage quota of SPEC §3 (the data rooms' quota view): from the storage report's running
// totals (reports/storage-totals.ts), the global quota setting and what the store still takes; with
// the caller's own quota and, asked for a room, that room's (issue 32, uploads/quotas.ts).
import { DELIVERY_SETTING_KEYS } from '@shared/contract/deliveries';
import type { StorageQuota } from '@shared/contract/room-ops';
import type { RequestContext } from '../../core/request-context';
import { roomUsed, userQuotaInForce, userUsed } from '../../uploads/quotas';
import { spaceAvailable } from '../../uploads/space';
import { liveRoom, requireMember } from './roles';

export async function storageQuota({ app, user }: RequestContext, query: { roomUuid?: string | undefined } = {}): Promise<StorageQuota> {
  // A room the caller is no member of: 404 before any figure is read.
  const room = query.roomUuid === undefined ? undefined : await liveRoom(app.db, query.roomUuid);
  if (room) await requireMember(app.db, room, user.id);
  const rows = await app.db.selectFrom('storage_totals').select(['area', 'bytes']).execute();
  const used = rows.reduce((sum, r) => sum + Number(r.bytes), 0);
  const secureRooms = rows.filter((r) => r.area === 'dataRooms').reduce((sum, r) => sum + Number(r.bytes), 0);
  const quota = Number(await app.settings.get<number>(DELIVERY_SETTING_KEYS.globalQuota));
  const available = await spaceAvailable(app);
  return {
    used,
    total: quota > 0 ? quota : null,
    other: used - secureRooms,
    secureRooms,
    // What an upload may still take (the quota and the disk); null: neither limits it.
    free: available === Number.MAX_SAFE_INTEGER ? null : available,
    user: { used: await userUsed(app.db, user.id), total: await userQuotaInForce(app, user.id) },
    ...(room ? { room: { used: await roomUsed(app.db, room.id), total: room.storage_quota === null ? null : Number(room.storage_quota) } } : {}),
  };
}
