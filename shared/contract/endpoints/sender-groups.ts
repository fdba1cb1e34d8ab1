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
import { defineEndpoint, NoContentSchema } from '../endpoint';

const ADMIN = { roles: ['ROLE_ADMIN'] } as const;

/** Administration of sender groups and of a user's sender settings. */
export const SENDER_GROUP_ENDPOINTS = {
  list: defineEndpoint({
    method: 'GET',
    path: '/admin/sender-groups',
    response: { 200: SenderGroupListSchema },
    errors: [401, 403],
    access: ADMIN,
    operationId: 'listSenderGroups',
    summary: 'Sender groups with their allowed security levels',
    tag: 'admin',
  }),
  create: defineEndpoint({
    method: 'POST',
    path: '/admin/sender-groups',
    body: CreateSenderGroupBodySchema,
    response: { 201: SenderGroupResponseSchema },
    errors: [400, 401, 403, 409],
    access: ADMIN,
    operationId: 'createSenderGroup',
    summary: 'Creates a sender group',
    tag: 'admin',
  }),
  update: defineEndpoint({
    method: 'PATCH',
    path: '/admin/sender-groups/{groupUuid}',
    params: SenderGroupParamsSchema,
    body: UpdateSenderGroupBodySchema,
    response: { 200: SenderGroupResponseSchema },
    errors: [400, 401, 403, 404, 409],
    access: ADMIN,
    operationId: 'updateSenderGroup',
    summary: 'Renames a sender group or sets its levels',
    tag: 'admin',
  }),
  remove: defineEndpoint({
    method: 'DELETE',
    path: '/admin/sender-groups/{groupUuid}',
    params: SenderGroupParamsSchema,
    response: { 204: NoContentSchema },
    errors: [401, 403, 404],
    access: ADMIN,
    operationId: 'deleteSenderGroup',
    summary: 'Deletes a sender group (members fall back to the global levels)',
    tag: 'admin',
  }),
  userSender: defineEndpoint({
    method: 'PATCH',
    path: '/admin/users/{userUuid}/sender',
    params: UserParamsSchema,
    body: UpdateUserSenderBodySchema,
    response: { 200: AdminUserSchema },
    errors: [400, 401, 403, 404, 409],
    access: ADMIN,
    operationId: 'updateUserSender',
    summary: "Sets a user's licence and sender group",
    tag: 'admin',
  }),
};
