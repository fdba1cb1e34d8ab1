import { call } from '@shared/api/call';
import { ROOM_INVITATION_ENDPOINTS as E } from '@shared/contract/endpoints/room-invitations';
import type { InvitationDetails, InvitationSignupBody, InvitationSignupResponse } from '@shared/contract/room-invitations';
import { apiClient } from '@web/lib/api-client';
import useSWR from 'swr';

/** POST /room-invitations/check: the invitation behind the mailed token (410: expired or used). */
export const useRoomInvitation = (token: string | null) =>
  useSWR(token ? ['auth/dataroom-invitation', token] : null, (): Promise<InvitationDetails> => call(apiClient, E.check, { body: { token: token! } }), {
    revalidateOnFocus: false,
    shouldRetryOnError: false,
  });

/** POST /room-invitations/signup: the account and the room entry (single use). */
export const completeRoomInvitation = (body: InvitationSignupBody): Promise<InvitationSignupResponse> => call(apiClient, E.signup, { body });
