import { call } from '@shared/api/call';
import { ROOM_LINK_ENDPOINTS as E } from '@shared/contract/endpoints/room-links';
import { ROOM_LINK_TOKEN_HEADER } from '@shared/contract/link-token';
import type { CreatedRoomLink, RoomLinkInfo, RoomLinkList } from '@shared/contract/room-links';
import { apiClient } from '@web/lib/api-client';
import { useAuthState } from '@web/lib/auth';
import useSWR, { mutate } from 'swr';

/** A plain room file's public links (shared/contract/endpoints/room-links.ts). */

const LINKS_KEY = 'rooms/links';

/** GET …/files/{file}/links (OWNER, EDITOR); null file: not asked. */
export const useRoomFileLinks = (file: { roomUuid: string; uuid: string } | null) => {
  const { user } = useAuthState();
  return useSWR(user && file ? [LINKS_KEY, user.uuid, file.roomUuid, file.uuid] : null, ([, , roomUuid, fileUuid]): Promise<RoomLinkList> =>
    call(apiClient, E.list, { params: { roomUuid, fileUuid } }),
  );
};

const refreshLinks = () => mutate((key) => Array.isArray(key) && key[0] === LINKS_KEY);

export async function createRoomFileLink(roomUuid: string, fileUuid: string, expiresInDays: number): Promise<CreatedRoomLink> {
  const created = await call(apiClient, E.create, { params: { roomUuid, fileUuid }, body: { expiresInDays } });
  await refreshLinks();
  return created;
}

export async function revokeRoomFileLink(roomUuid: string, fileUuid: string, linkUuid: string): Promise<void> {
  await call(apiClient, E.revoke, { params: { roomUuid, fileUuid, linkUuid } });
  await refreshLinks();
}

/** The header that carries a link's token (never the URL: issue 28). */
export const roomLinkTokenHeaders = (token: string) => ({ [ROOM_LINK_TOKEN_HEADER]: token });

/** GET /room-links/by-token (public): what the landing page shows before the download. */
export const getRoomLinkInfo = (token: string): Promise<RoomLinkInfo> => call(apiClient, E.info, {}, { headers: roomLinkTokenHeaders(token) });
