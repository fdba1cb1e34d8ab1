import { call } from '@shared/api/call';
import { ROOM_ENDPOINTS as E } from '@shared/contract/endpoints/rooms';
import type { RoomsSearchResult } from '@shared/contract/room-search';
import { apiClient } from '@web/lib/api-client';
import { useAuthState } from '@web/lib/auth';
import { ROUTES } from '@web/lib/routes';
import useSWR from 'swr';

/** GET /rooms/search: names across every plain room the caller can see; no call for an empty q. */
export const useRoomsSearch = (q: string) => {
  const { user } = useAuthState();
  return useSWR(user && q ? ['rooms/search', user.uuid, q] : null, (): Promise<RoomsSearchResult> => call(apiClient, E.searchAll, { query: { q, pageSize: 50 } }), {
    keepPreviousData: true,
  });
};

/** The query value naming the item a room page highlights (a search hit). */
export const HIGHLIGHT_PARAM = 'highlight';

const highlighting = (path: string, itemUuid: string) => `${path}?${HIGHLIGHT_PARAM}=${encodeURIComponent(itemUuid)}`;

/** The folder (or top level) of a hit, with the item highlighted there. */
export const hitLocation = (roomUuid: string, folderUuid: string | null | undefined, itemUuid: string): string =>
  highlighting(ROUTES.room(roomUuid, folderUuid ?? undefined), itemUuid);

/** The same in an E2E room (its page finds the item among the names it decrypts). */
export const secureHitLocation = (roomUuid: string, folderUuid: string | null | undefined, itemUuid: string): string =>
  highlighting(ROUTES.secureRoom(roomUuid, folderUuid ?? undefined), itemUuid);

export const searchLocation = (q: string): string => `${ROUTES.roomsSearch}?q=${encodeURIComponent(q)}`;
