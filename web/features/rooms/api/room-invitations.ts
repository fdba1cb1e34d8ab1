import { call } from '@shared/api/call';
import { ROOM_INVITATION_ENDPOINTS as E } from '@shared/contract/endpoints/room-invitations';
import type { RoomInvitationList } from '@shared/contract/room-invitations';
import { apiClient } from '@web/lib/api-client';
import { useAuthState } from '@web/lib/auth';
import useSWR, { mutate } from 'swr';

/** Pending invitations of addresses without an account (shared/contract/room-invitations.ts). */
const INVITATIONS_KEY = 'rooms/invitations';

/** GET /rooms/{room}/invitations?folderUuid (OWNER there); null key while the dialog is closed. */
export const useRoomInvitations = (roomUuid: string, folderUuid: string | undefined, open: boolean) => {
  const { user } = useAuthState();
  return useSWR(open && user ? [INVITATIONS_KEY, user.uuid, roomUuid, folderUuid ?? null] : null, (): Promise<RoomInvitationList> =>
    call(apiClient, E.list, { params: { roomUuid }, query: folderUuid ? { folderUuid } : {} }),
  );
};

export const revokeRoomInvitation = async (roomUuid: string, invitationUuid: string): Promise<void> => {
  await call(apiClient, E.revoke, { params: { roomUuid, invitationUuid } });
};

export async function refreshRoomInvitations(): Promise<void> {
  await mutate((key) => Array.isArray(key) && key[0] === INVITATIONS_KEY);
}
