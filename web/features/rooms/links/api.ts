import { call } from '@shared/api/call';
import { ROOM_LINK_ENDPOINTS as E } from '@shared/contract/endpoints/room-links';
import { ROOM_LINK_TOKEN_HEADER } from '@shared/contract/link-token';
import { ROOM_LINK_PASSWORD_HEADER, type CreatedRoomLink, type CreateRoomLinkBody, type RoomLinkInfo, type RoomLinkList, type RoomLinkOverview } from '@shared/contract/room-links';
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

/** GET /rooms/{room}/links (the room's OWNER): every link of the room; loaded while `enabled`. Its key shares the prefix, so a file link's change refreshes it. */
export const useRoomLinkOverview = (roomUuid: string, enabled: boolean) => {
  const { user } = useAuthState();
  return useSWR(user && enabled ? [LINKS_KEY, user.uuid, roomUuid, 'overview'] : null, ([, , room]): Promise<RoomLinkOverview> => call(apiClient, E.overview, { params: { roomUuid: room } }));
};

export const refreshLinks = () => mutate((key) => Array.isArray(key) && key[0] === LINKS_KEY);

export async function createRoomFileLink(roomUuid: string, fileUuid: string, body: CreateRoomLinkBody): Promise<CreatedRoomLink> {
  const created = await call(apiClient, E.create, { params: { roomUuid, fileUuid }, body });
  await refreshLinks();
  return created;
}

export async function revokeRoomFileLink(roomUuid: string, fileUuid: string, linkUuid: string): Promise<void> {
  await call(apiClient, E.revoke, { params: { roomUuid, fileUuid, linkUuid } });
  await refreshLinks();
}

/** The headers that carry a link's token (never the URL: issue 28) and a protected link's password (URI-encoded: headers carry Latin-1 only). */
export const roomLinkTokenHeaders = (token: string, password?: string): Record<string, string> => ({
  [ROOM_LINK_TOKEN_HEADER]: token,
  ...(password ? { [ROOM_LINK_PASSWORD_HEADER]: encodeURIComponent(password) } : {}),
});

/** GET /room-links/by-token (public): what the landing page shows before the download. */
export const getRoomLinkInfo = (token: string, password?: string): Promise<RoomLinkInfo> => call(apiClient, E.info, {}, { headers: roomLinkTokenHeaders(token, password) });
