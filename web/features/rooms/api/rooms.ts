import { call } from '@shared/api/call';
import { ROOM_ENDPOINTS as E } from '@shared/contract/endpoints/rooms';
import type { Room, RoomAccessList, RoomContents, RoomFolder, RoomList, RoomRole } from '@shared/contract/rooms';
import { apiClient } from '@web/lib/api-client';
import { useAuthState } from '@web/lib/auth';
import useSWR, { mutate } from 'swr';

/** The data-room calls (shared/contract/endpoints/rooms.ts); the server checks the room role on each. */

const ROOMS_KEY = 'rooms/list';
const CONTENTS_KEY = 'rooms/contents';
const ACCESS_KEY = 'rooms/access';

export interface RoomListParams {
  cursor?: string;
  q?: string;
}

/** GET /rooms, keyed by the signed-in user and the query; keeps the page while the next loads. */
export const useRooms = (query: RoomListParams) => {
  const { user } = useAuthState();
  return useSWR(
    user ? [ROOMS_KEY, user.uuid, query] : null,
    ([, , q]): Promise<RoomList> => call(apiClient, E.list, { query: { pageSize: 25, ...(q.cursor ? { cursor: q.cursor } : {}), ...(q.q ? { q: q.q } : {}) } }),
    { keepPreviousData: true },
  );
};

/** GET /rooms/{room} or /rooms/{room}/folders/{folder}: the room or folder, breadcrumb, sub-folders. */
export const useRoomContents = (roomUuid: string, folderUuid: string | undefined) => {
  const { user } = useAuthState();
  return useSWR(user ? [CONTENTS_KEY, user.uuid, roomUuid, folderUuid ?? null] : null, (): Promise<RoomContents> =>
    folderUuid ? call(apiClient, E.folder, { params: { roomUuid, folderUuid } }) : call(apiClient, E.contents, { params: { roomUuid } }),
  );
};

/** The same, once (no cache): e.g. to find a folder that already exists under a parent. */
export const fetchRoomContents = (roomUuid: string, folderUuid: string | null): Promise<RoomContents> =>
  folderUuid ? call(apiClient, E.folder, { params: { roomUuid, folderUuid } }) : call(apiClient, E.contents, { params: { roomUuid } });

/** GET /rooms/{room}/access?folderUuid (OWNER there); null key while the dialog is closed. */
export const useRoomAccess = (roomUuid: string, folderUuid: string | undefined, open: boolean) => {
  const { user } = useAuthState();
  return useSWR(open && user ? [ACCESS_KEY, user.uuid, roomUuid, folderUuid ?? null] : null, (): Promise<RoomAccessList> =>
    call(apiClient, E.access, { params: { roomUuid }, query: folderUuid ? { folderUuid } : {} }),
  );
};

export const createRoom = (name: string): Promise<Room> => call(apiClient, E.create, { body: { name, encrypted: false } });
export const renameRoom = (roomUuid: string, name: string): Promise<Room> => call(apiClient, E.rename, { params: { roomUuid }, body: { name } });
export const deleteRoom = async (roomUuid: string): Promise<void> => {
  await call(apiClient, E.remove, { params: { roomUuid } });
};

export const createFolder = (roomUuid: string, name: string, parentUuid: string | null): Promise<RoomFolder> =>
  call(apiClient, E.createFolder, { params: { roomUuid }, body: { name, parentUuid } });
export const renameFolder = (roomUuid: string, folderUuid: string, name: string): Promise<RoomFolder> =>
  call(apiClient, E.updateFolder, { params: { roomUuid, folderUuid }, body: { name } });
/** PATCH the folder's parent (null: the room's top level); the server refuses another room and a move into itself. */
export const moveFolder = (roomUuid: string, folderUuid: string, parentUuid: string | null): Promise<RoomFolder> =>
  call(apiClient, E.updateFolder, { params: { roomUuid, folderUuid }, body: { parentUuid } });
export const deleteFolder = async (roomUuid: string, folderUuid: string): Promise<void> => {
  await call(apiClient, E.removeFolder, { params: { roomUuid, folderUuid } });
};

/** PUT /rooms/{room}/access: grant or change (`role`), revoke (`role: null`) on the room or a folder. */
export const setRoomAccess = (
  roomUuid: string,
  input: { user: string; role: RoomRole | null; folderUuid?: string; confirmOwnChange?: boolean },
): Promise<RoomAccessList> =>
  call(apiClient, E.setAccess, {
    params: { roomUuid },
    body: { user: input.user, role: input.role, ...(input.folderUuid ? { folderUuid: input.folderUuid } : {}), ...(input.confirmOwnChange ? { confirmOwnChange: true } : {}) },
  });

/** After a change every cached room list, room page and access list may be stale. */
export async function refreshRooms(): Promise<void> {
  await mutate((key) => Array.isArray(key) && [ROOMS_KEY, CONTENTS_KEY, ACCESS_KEY, 'rooms/activity'].includes(key[0] as string));
}
