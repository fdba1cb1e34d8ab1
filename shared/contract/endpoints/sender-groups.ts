import { AdminUserSchema } from '../admin-users';
import {
  CreateSenderGroupBodySchema,
  SenderGroupListSchema,
  SenderGroupParamsSchema,
  SenderGroupResponseSchema,
  UpdateSenderGroupBodySchema,
  UpdateUserSenderBodySchema,
  UserParamsSchema,
} from '../sender-groups';
import { endpointArea, NoContentSchema } from '../endpoint';

const ADMIN = { roles: ['ROLE_ADMIN'] } as const;

const senderGroups = endpointArea({ tag: 'admin', access: ADMIN });

/** Administration of sender groups and of a user's sender settings. */
export const SENDER_GROUP_ENDPOINTS = {
  list: senderGroups.get('/admin/sender-groups', 'listSenderGroups', 'Sender groups with their allowed security levels', {
    response: { 200: SenderGroupListSchema }, errors: [401, 403],
  }),
  create: senderGroups.post('/admin/sender-groups', 'createSenderGroup', 'Creates a sender group', {
    body: CreateSenderGroupBodySchema, response: { 201: SenderGroupResponseSchema }, errors: [400, 401, 403, 409],
  }),
  update: senderGroups.patch('/admin/sender-groups/{groupUuid}', 'updateSenderGroup', 'Renames a sender group or sets its levels', {
    params: SenderGroupParamsSchema, body: UpdateSenderGroupBodySchema, response: { 200: SenderGroupResponseSchema },
    errors: [400, 401, 403, 404, 409],
  }),
  remove: senderGroups.delete('/admin/sender-groups/{groupUuid}', 'deleteSenderGroup', 'Deletes a sender group (members fall back to the global levels)', {
    params: SenderGroupParamsSchema, response: { 204: NoContentSchema }, errors: [401, 403, 404],
  }),
  userSender: senderGroups.patch('/admin/users/{userUuid}/sender', 'updateUserSender', "Sets a user's licence and sender group", {
    params: UserParamsSchema, body: UpdateUserSenderBodySchema, response: { 200: AdminUserSchema }, errors: [400, 401, 403, 404, 409],
  }),
};
