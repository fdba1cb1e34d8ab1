import { call } from '@shared/api/call';
import { ROOM_ENDPOINTS as E } from '@shared/contract/endpoints/rooms';
import { ROOM_FILES_PAGE_MAX, type RoomContents } from '@shared/contract/rooms';
import { apiClient } from '@web/lib/api-client';
import { useAuthState } from '@web/lib/auth';
import useSWR from 'swr';

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
    const query = { pageSize: ROOM_FILES_PAGE_MAX, ...(cursor ? { cursor } : {}) };
    const page: RoomContents = folderUuid ? await call(apiClient, E.folder, { params: { roomUuid, folderUuid }, query }) : await call(apiClient, E.contents, { params: { roomUuid }, query });
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
