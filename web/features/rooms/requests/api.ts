import { call } from '@shared/api/call';
import { ROOM_REQUEST_ENDPOINTS as E } from '@shared/contract/endpoints/room-requests';
import type { CreateRoomRequestBody, RoomRequest, RoomRequestList } from '@shared/contract/room-requests';
import { apiClient } from '@web/lib/api-client';
import { useAuthState } from '@web/lib/auth';
import useSWR, { mutate } from 'swr';

/** A room's data-room requests (shared/contract/endpoints/room-requests.ts). */

const REQUESTS_KEY = 'rooms/requests';

/** GET /rooms/{room}/requests (OWNERs; `enabled` false: not asked). */
export const useRoomRequests = (roomUuid: string, enabled: boolean) => {
  const { user } = useAuthState();
  return useSWR(user && enabled ? [REQUESTS_KEY, user.uuid, roomUuid] : null, ([, , room]): Promise<RoomRequestList> => call(apiClient, E.list, { params: { roomUuid: room } }));
};

const refreshRequests = () => mutate((key) => Array.isArray(key) && key[0] === REQUESTS_KEY);

export async function createRoomRequest(roomUuid: string, body: CreateRoomRequestBody): Promise<RoomRequest> {
  const created = await call(apiClient, E.create, { params: { roomUuid }, body });
  await refreshRequests();
  return created;
}

export async function revokeRoomRequest(roomUuid: string, requestUuid: string): Promise<void> {
  await call(apiClient, E.revoke, { params: { roomUuid, requestUuid } });
  await refreshRequests();
}
