import { call } from '@shared/api/call';
import { ROOM_ENDPOINTS as E } from '@shared/contract/endpoints/rooms';
import type { RoomTrashList } from '@shared/contract/room-files';
import { apiClient } from '@web/lib/api-client';
import { useAuthState } from '@web/lib/auth';
import useSWR from 'swr';

/** GET /rooms/{room}/trash: what was deleted where the caller may delete (OWNER, EDITOR; server/README "Data rooms"). */
export const useRoomTrash = (roomUuid: string) => {
  const { user } = useAuthState();
  return useSWR(user ? ['rooms/trash', user.uuid, roomUuid] : null, (): Promise<RoomTrashList> => call(apiClient, E.trash, { params: { roomUuid } }));
};

/** POST …/trash/{item}/restore: back where it was (409 `parentInTrash` or `nameExists` otherwise). */
export const restoreTrashItem = async (roomUuid: string, itemUuid: string): Promise<void> => {
  await call(apiClient, E.restoreItem, { params: { roomUuid, itemUuid } });
};

/** DELETE …/trash/{item}: for good, with the bytes. */
export const purgeTrashItem = async (roomUuid: string, itemUuid: string): Promise<void> => {
  await call(apiClient, E.purgeItem, { params: { roomUuid, itemUuid } });
};
