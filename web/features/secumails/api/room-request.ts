import { call } from '@shared/api/call';
import { ROOM_REQUEST_ENDPOINTS as E } from '@shared/contract/endpoints/room-requests';
import type { DeliveryDetail } from '@shared/contract/deliveries';
import { ROOM_REQUEST_TOKEN_HEADER } from '@shared/contract/link-token';
import type { RoomRequestDeliveryBody, RoomRequestInfo, RoomRequestSignupBody } from '@shared/contract/room-requests';
import { apiClient } from '@web/lib/api-client';
import useSWR from 'swr';

/**
 * A data-room request's public calls (shared/contract/endpoints/room-requests.ts): the token is
 * the credential, sent in the x-room-request-token header (never in the URL: issue 28).
 */
const withToken = (token: string) => ({ headers: { [ROOM_REQUEST_TOKEN_HEADER]: token } });

/** GET /room-requests/by-token: what is requested (410 once expired, used or revoked). */
export const useRoomRequestInfo = (token: string | null) =>
  useSWR(token ? ['room-request', token] : null, ([, t]): Promise<RoomRequestInfo> => call(apiClient, E.info, {}, withToken(t)), {
    revalidateOnFocus: false,
    shouldRetryOnError: false,
  });

export const signUpForRoomRequest = (token: string, body: RoomRequestSignupBody) => call(apiClient, E.signup, { body }, withToken(token));

/** The answering draft (recipient fixed to the requester); the send page adds the files and sends it. */
export const createRoomRequestDelivery = (token: string, body: RoomRequestDeliveryBody): Promise<DeliveryDetail> => call(apiClient, E.delivery, { body }, withToken(token));
