import { endpointArea, NoContentSchema } from '../endpoint';
import { TrashBinListSchema, TrashBinQuerySchema, TrashItemParamsSchema } from '../room-admin';

const area = endpointArea({ tag: 'admin', access: { roles: ['ROLE_ADMIN'] } });

/** Administration of data rooms (shared/contract/room-admin.ts, server/README "Room administration"): the trash bin. */
export const ROOM_ADMIN_ENDPOINTS = {
  trashBin: area.get('/admin/trash-bin', 'listTrashBin', 'Deleted rooms, folders and files of every room, newest deletion first; q searches the name; paged by cursor', {
    query: TrashBinQuerySchema, response: { 200: TrashBinListSchema }, errors: [400, 401, 403],
  }),
  restoreTrashBinItem: area.post('/admin/trash-bin/{itemUuid}/restore', 'restoreTrashBinItem', 'Restores a trashed room, folder or file with everything below it (204); 409 names the entry', {
    params: TrashItemParamsSchema, response: { 204: NoContentSchema }, errors: [400, 401, 403, 404, 409],
  }),
};
