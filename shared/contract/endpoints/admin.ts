import {
  AddBannedRecipientBodySchema,
  AdminUserSchema,
  BannedRecipientParamsSchema,
  BannedRecipientsSchema,
  CreateUserBodySchema,
  CreateUserResponseSchema,
  ListUsersQuerySchema,
  ListUsersResponseSchema,
  UpdateUserBodySchema,
  UserUuidParamsSchema,
} from '../admin-users';
import { AuditLogCsvQuerySchema, AuditLogQuerySchema, AuditLogResponseSchema } from '../audit';
import { AdminSettingsResponseSchema, AdminSettingsUpdateSchema, AdminSystemStatusSchema } from '../settings';
import { endpointArea, NoContentSchema } from '../endpoint';

const admin = endpointArea({ tag: 'admin', access: { roles: ['ROLE_ADMIN', 'ROLE_USER_ADMIN'] } });

/** Administration of the core: settings, system status, users (server/user-admin), banned recipients, audit log. */
export const ADMIN_ENDPOINTS = {
  settings: admin.get('/admin/settings', 'getAdminSettings', 'Every setting with its current value', {
    response: { 200: AdminSettingsResponseSchema }, errors: [400, 401, 403], access: { roles: ['ROLE_ADMIN'] },
  }),
  updateSettings: admin.put('/admin/settings', 'updateAdminSettings', 'Changes the given settings (partial map); unknown keys or wrong types are refused', {
    body: AdminSettingsUpdateSchema, response: { 200: AdminSettingsResponseSchema }, errors: [400, 401, 403], access: { roles: ['ROLE_ADMIN'] },
  }),
  systemStatus: admin.get('/admin/system/status', 'getAdminSystemStatus', 'Warnings about the running server (e.g. no SMTP behind a public URL)', {
    response: { 200: AdminSystemStatusSchema }, errors: [400, 401, 403], access: { roles: ['ROLE_ADMIN'] },
  }),
  users: admin.get('/admin/users', 'listUsers', 'Users ordered by email; q searches email, username, first and last name; paged', {
    query: ListUsersQuerySchema, response: { 200: ListUsersResponseSchema }, errors: [400, 401, 403],
  }),
  auditLog: admin.get('/admin/audit-log', 'getAuditLog', 'The audit log, newest first, paged; filters action, user (part of an address), from/to (epoch ms)', {
    query: AuditLogQuerySchema, response: { 200: AuditLogResponseSchema }, errors: [400, 401, 403], access: { roles: ['ROLE_ADMIN'] },
  }),
  auditLogCsv: admin.get('/admin/audit-log/csv', 'getAuditLogCsv', 'The filtered audit log as CSV (UTF-8 with BOM), newest first, at most 10 000 rows', {
    query: AuditLogCsvQuerySchema, response: {}, produces: ['text/csv'], errors: [400, 401, 403], access: { roles: ['ROLE_ADMIN'] },
  }),
  createUser: admin.post('/admin/users', 'createUser', 'Creates a user (the password must meet the policy)', {
    body: CreateUserBodySchema, response: { 201: CreateUserResponseSchema }, errors: [409, 400, 401, 403],
  }),
  updateUser: admin.patch('/admin/users/{userUuid}', 'updateUser', 'Changes names, language and roles of a user', {
    params: UserUuidParamsSchema, body: UpdateUserBodySchema, response: { 200: AdminUserSchema }, errors: [400, 401, 403, 404, 409],
  }),
  disableUser: admin.post('/admin/users/{userUuid}/disable', 'disableUser', 'Disables a user: every session ends, sign-in answers code 8', {
    params: UserUuidParamsSchema, response: { 200: AdminUserSchema }, errors: [401, 403, 404, 409],
  }),
  enableUser: admin.post('/admin/users/{userUuid}/enable', 'enableUser', 'Enables a disabled user again', {
    params: UserUuidParamsSchema, response: { 200: AdminUserSchema }, errors: [401, 403, 404, 409],
  }),
  deleteUser: admin.delete('/admin/users/{userUuid}', 'deleteUser', 'Deletes a user with the deliveries they sent (received ones stay with their senders) (204)', {
    params: UserUuidParamsSchema, response: { 204: NoContentSchema }, errors: [401, 403, 404, 409],
  }),
  resendInvitation: admin.post('/admin/users/{userUuid}/invitation', 'resendInvitation', 'Mails a new invitation (set-password link) to a user who has not proven the address yet (204)', {
    params: UserUuidParamsSchema, response: { 204: NoContentSchema }, errors: [401, 403, 404, 409],
  }),
  bannedRecipients: admin.get('/admin/banned-recipients', 'listBannedRecipients', 'Banned recipient addresses and @domains', {
    response: { 200: BannedRecipientsSchema }, errors: [401, 403],
  }),
  banRecipient: admin.post('/admin/banned-recipients', 'banRecipient', 'Bans a recipient address or @domain (nobody can send to it); answers the list', {
    body: AddBannedRecipientBodySchema, response: { 200: BannedRecipientsSchema }, errors: [400, 401, 403],
  }),
  unbanRecipient: admin.delete('/admin/banned-recipients/{entry}', 'unbanRecipient', 'Lifts the ban of an address or @domain; answers the list (404 when not banned)', {
    params: BannedRecipientParamsSchema, response: { 200: BannedRecipientsSchema }, errors: [400, 401, 403, 404],
  }),
};
