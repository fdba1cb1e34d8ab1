import { call } from '@shared/api/call';
import { ROOM_REQUEST_ENDPOINTS as E } from '@shared/contract/endpoints/room-requests';
import type { DeliveryDetail } from '@shared/contract/deliveries';
import type { RoomRequestDeliveryBody, RoomRequestInfo, RoomRequestSignupBody } from '@shared/contract/room-requests';
import { apiClient } from '@web/lib/api-client';
import useSWR from 'swr';

/** A data-room request's public calls (shared/contract/endpoints/room-requests.ts): the token is the credential. */

/** GET /room-requests/{token}: what is requested (410 once expired, used or revoked). */
export const useRoomRequestInfo = (token: string | null) =>
  useSWR(token ? ['room-request', token] : null, ([, t]): Promise<RoomRequestInfo> => call(apiClient, E.info, { params: { token: t } }), {
    revalidateOnFocus: false,
    shouldRetryOnError: false,
  });

export const signUpForRoomRequest = (token: string, body: RoomRequestSignupBody) => call(apiClient, E.signup, { params: { token }, body });

/** The answering draft (recipient fixed to the requester); the send page adds the files and sends it. */
export const createRoomRequestDelivery = (token: string, body: RoomRequestDeliveryBody): Promise<DeliveryDetail> => call(apiClient, E.delivery, { params: { token }, body });
