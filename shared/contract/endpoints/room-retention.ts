import { endpointArea } from '../endpoint';
import { RoomParamsSchema } from '../rooms';
import { RoomRetentionPreviewQuerySchema, RoomRetentionPreviewSchema, RoomRetentionSchema, RoomRetentionUpdateSchema } from '../room-retention';

const area = endpointArea({ tag: 'rooms', access: 'authenticated' });

/**
 * A room's retention policy (shared/contract/room-retention.ts; server/README "Room retention").
 * Signed-in users; the room role is checked per room: a non-member gets 404, a member without the
 * right 403.
 */
export const ROOM_RETENTION_ENDPOINTS = {
  policy: area.get('/rooms/{roomUuid}/retention', 'getRoomRetention', 'The room’s retention period in force and a change waiting for the end of the day (every member)', {
    params: RoomParamsSchema, response: { 200: RoomRetentionSchema }, errors: [401, 404],
  }),
  setPolicy: area.put('/rooms/{roomUuid}/retention', 'setRoomRetention', 'Changes the retention period from the end of today; every confirmation box ticked, at or above the administrator’s minimum (OWNER)', {
    params: RoomParamsSchema, body: RoomRetentionUpdateSchema, response: { 200: RoomRetentionSchema }, errors: [400, 401, 403, 404],
  }),
  preview: area.get('/rooms/{roomUuid}/retention/preview', 'previewRoomRetention', 'The files a period would move to the trash at the next end of day (OWNER)', {
    params: RoomParamsSchema, query: RoomRetentionPreviewQuerySchema, response: { 200: RoomRetentionPreviewSchema }, errors: [400, 401, 403, 404],
  }),
};
