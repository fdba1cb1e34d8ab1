import { call } from '@shared/api/call';
import { ROOM_RETENTION_ENDPOINTS as E } from '@shared/contract/endpoints/room-retention';
import type { RetentionConfirmation, RoomRetention, RoomRetentionPreview } from '@shared/contract/room-retention';
import { apiClient } from '@web/lib/api-client';
import { useAuthState } from '@web/lib/auth';
import useSWR from 'swr';

/** GET /rooms/{room}/retention: the period in force and a change waiting for the end of the day (every member). */
export const useRoomRetention = (roomUuid: string | null) => {
  const { user } = useAuthState();
  return useSWR(user && roomUuid ? ['rooms/retention', user.uuid, roomUuid] : null, (): Promise<RoomRetention> => call(apiClient, E.policy, { params: { roomUuid: roomUuid! } }));
};

/** GET …/retention/preview?periodDays: what that period would move to the trash at the next end of day (OWNER). */
export const useRetentionPreview = (roomUuid: string, periodDays: number | null) => {
  const { user } = useAuthState();
  return useSWR(user && periodDays !== null ? ['rooms/retention-preview', user.uuid, roomUuid, periodDays] : null, (): Promise<RoomRetentionPreview> =>
    call(apiClient, E.preview, { params: { roomUuid }, query: { periodDays: periodDays! } }),
  );
};

/** PUT …/retention: the change, in force from the end of today (OWNER; every box ticked). */
export const setRoomRetention = (roomUuid: string, periodDays: number | null, confirmations: RetentionConfirmation[]): Promise<RoomRetention> =>
  call(apiClient, E.setPolicy, { params: { roomUuid }, body: { periodDays, confirmations } });
