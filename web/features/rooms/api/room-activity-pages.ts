import type { RoomActivityEntry, RoomActivityList } from '@shared/contract/room-files';
import { useCallback, useRef, useState } from 'react';
import { loadRoomActivity, useRoomActivity } from './room-files';

interface Older {
  /** The first page these older pages continue. */
  after: RoomActivityList;
  pages: RoomActivityList[];
  loading: boolean;
  failed: boolean;
}

export interface RoomActivityPages {
  /** Every entry loaded so far, newest first; undefined until the first page is there. */
  entries: RoomActivityEntry[] | undefined;
  /** The first page failed (nothing to show). */
  error: unknown;
  /** Older entries exist: "Load more" fetches the next page. */
  hasMore: boolean;
  loadingMore: boolean;
  /** The last "Load more" failed; calling loadMore again retries it. */
  moreFailed: boolean;
  /** Older pages have been loaded (beyond the first). */
  pagedMore: boolean;
  loadMore: () => Promise<void>;
}

/**
 * The activity log page by page (GET /rooms/{room}/activity, cursor paging). The first page is the
 * SWR entry the room's actions revalidate; older pages are kept as long as that first page stays the
 * same. A new first page (new activity) drops them: its cursor moved, and keeping them would leave a
 * gap between the pages.
 */
export function useRoomActivityPages(roomUuid: string, folderUuid: string | null, enabled: boolean, fileUuid: string | null = null): RoomActivityPages {
  const first = useRoomActivity(roomUuid, folderUuid, enabled, fileUuid);
  const [older, setOlder] = useState<Older | null>(null);
  const current = first.data && older?.after === first.data ? older : null;
  const last = current?.pages.at(-1) ?? first.data;
  const cursor = last?.nextCursor ?? null;
  // A second click while a page is on its way is ignored (the button stays focusable while loading).
  const inFlight = useRef(false);

  const loadMore = useCallback(async () => {
    const after = first.data;
    if (!after || !cursor || inFlight.current) return;
    inFlight.current = true;
    setOlder((was) => ({ after, pages: was?.after === after ? was.pages : [], loading: true, failed: false }));
    try {
      const page = await loadRoomActivity(roomUuid, folderUuid, fileUuid, cursor);
      setOlder((was) => (was?.after === after ? { ...was, pages: [...was.pages, page], loading: false } : was));
    } catch {
      setOlder((was) => (was?.after === after ? { ...was, loading: false, failed: true } : was));
    } finally {
      inFlight.current = false;
    }
  }, [first.data, cursor, roomUuid, folderUuid, fileUuid]);

  return {
    entries: first.data ? [first.data, ...(current?.pages ?? [])].flatMap((page) => page.entries) : undefined,
    error: first.error,
    hasMore: cursor !== null,
    loadingMore: current?.loading ?? false,
    moreFailed: current?.failed ?? false,
    pagedMore: (current?.pages.length ?? 0) > 0,
    loadMore,
  };
}
