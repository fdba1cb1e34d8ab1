import { ROOM_FILES_PAGE_MAX, type RoomContents } from '@shared/contract/rooms';
import { useAuthState } from '@web/lib/auth';
import useSWR from 'swr';
import { fetchRoomContents } from '../api/rooms';

/**
 * An E2E room's folder with ALL its files: the server pages a folder's files by the (sealed) name,
 * which means nothing to the browser — it decrypts every name, then sorts and searches them itself
 * — so every page is fetched (the largest pages the server gives). Keyed under 'rooms/contents'
 * like the plain pages, so `refreshRooms()` reloads it too.
 */
export async function wholeRoomContents(roomUuid: string, folderUuid: string | undefined): Promise<RoomContents> {
  let first: RoomContents | undefined;
  const files: RoomContents['files'] = [];
  let cursor: string | undefined;
  do {
    const page: RoomContents = await fetchRoomContents(roomUuid, folderUuid ?? null, { pageSize: ROOM_FILES_PAGE_MAX, ...(cursor ? { cursor } : {}) });
    first ??= page;
    files.push(...page.files);
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return { ...first, files, nextCursor: null };
}

export const useWholeRoomContents = (roomUuid: string, folderUuid: string | undefined) => {
  const { user } = useAuthState();
  return useSWR(user ? ['rooms/contents', user.uuid, roomUuid, folderUuid ?? null, 'whole'] : null, () => wholeRoomContents(roomUuid, folderUuid));
};
