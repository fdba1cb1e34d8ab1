// The storage quota of SPEC §3 (the data rooms' quota view): from the storage report's running
// totals (reports/storage-totals.ts), the global quota setting and what the store still takes.
import { DELIVERY_SETTING_KEYS } from '@shared/contract/deliveries';
import type { StorageQuota } from '@shared/contract/room-ops';
import type { RequestContext } from '../../core/request-context';
import { spaceAvailable } from '../../uploads/space';

export async function storageQuota({ app }: RequestContext): Promise<StorageQuota> {
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
  };
}
