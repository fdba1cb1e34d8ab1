import { call } from '@shared/api/call';
import { ROOM_ENDPOINTS as E } from '@shared/contract/endpoints/rooms';
import { ROOM_E2E_ENDPOINTS } from '@shared/contract/endpoints/rooms-e2e';
import type { RoomAccessSetResult } from '@shared/contract/room-invitations';
import type { Room, RoomAccessList, RoomContents, RoomContentsQuery, RoomFileSort, RoomFolder, RoomList, RoomRole } from '@shared/contract/rooms';
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

/** GET /rooms/e2e: the Secure rooms (the plain list leaves them out), names sealed; under the same cache key family. */
export const useSecureRooms = () => {
  const { user } = useAuthState();
  return useSWR(user ? [ROOMS_KEY, user.uuid, 'secure'] : null, (): Promise<RoomList> => call(apiClient, ROOM_E2E_ENDPOINTS.list, { query: { pageSize: 200 } }), {
    keepPreviousData: true,
  });
};

/** A page of a room's or folder's files: the server's keyset cursor (none: the first page) and order. */
export interface RoomFilesPage {
  cursor?: string;
  sort: RoomFileSort;
  order: 'asc' | 'desc';
  pageSize: number;
}

/** Files per page in the room view; the first page by name. */
export const ROOM_FILES_PAGE_SIZE = 25;
/** How often a listing with a file in its virus check asks again. */
const SCAN_POLL_MS = 2000;

export const FIRST_FILES_PAGE: RoomFilesPage = { sort: 'name', order: 'asc', pageSize: ROOM_FILES_PAGE_SIZE };

/**
 * GET /rooms/{room} or /rooms/{room}/folders/{folder}: the room or folder, breadcrumb, a page of its
 * files (the sub-folders only with the first page); keeps the shown page while the next loads.
 */
export const useRoomContents = (roomUuid: string, folderUuid: string | undefined, page: RoomFilesPage = FIRST_FILES_PAGE) => {
  const { user } = useAuthState();
  return useSWR(
    user ? [CONTENTS_KEY, user.uuid, roomUuid, folderUuid ?? null, page] : null,
    ([, , , , p]): Promise<RoomContents> => fetchRoomContents(roomUuid, folderUuid ?? null, { pageSize: p.pageSize, sort: p.sort, order: p.order, ...(p.cursor ? { cursor: p.cursor } : {}) }),
    // A file still being checked for viruses turns downloadable (or blocked) without a reload.
    { keepPreviousData: true, refreshInterval: (latest) => (latest?.files.some((f) => f.scanState === 'scanning') ? SCAN_POLL_MS : 0) },
  );
};

/**
 * The same, once (no cache): e.g. to find a folder that already exists under a parent; `query` pages
 * the files (none: the server's first page). The one place that picks the room or the folder call.
 */
export function fetchRoomContents(roomUuid: string, folderUuid: string | null, query: RoomContentsQuery = {}): Promise<RoomContents> {
  return folderUuid ? call(apiClient, E.folder, { params: { roomUuid, folderUuid }, query }) : call(apiClient, E.contents, { params: { roomUuid }, query });
}

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

/** PUT /rooms/{room}/access: grant or change (`role`), revoke (`role: null`) on the room or a folder; an address without an account is invited (`invitation`). */
export const setRoomAccess = (
  roomUuid: string,
  input: { user: string; role: RoomRole | null; folderUuid?: string; confirmOwnChange?: boolean },
): Promise<RoomAccessSetResult> =>
  call(apiClient, E.setAccess, {
    params: { roomUuid },
    body: { user: input.user, role: input.role, ...(input.folderUuid ? { folderUuid: input.folderUuid } : {}), ...(input.confirmOwnChange ? { confirmOwnChange: true } : {}) },
  });

/** After a change every cached room list, room page and access list may be stale. */
export async function refreshRooms(): Promise<void> {
  await mutate((key) => Array.isArray(key) && [ROOMS_KEY, CONTENTS_KEY, ACCESS_KEY, 'rooms/activity'].includes(key[0] as string));
}
