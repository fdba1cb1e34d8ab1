import { CreateUserBodySchema, CreateUserResponseSchema, ListUsersQuerySchema, ListUsersResponseSchema } from '../admin-users';
import { AuditLogQuerySchema, AuditLogResponseSchema } from '../audit';
import { AdminSettingsResponseSchema, AdminSettingsUpdateSchema, AdminSystemStatusSchema } from '../settings';
import { defineEndpoint } from '../endpoint';

/** Administration of the core: settings, system status, users, audit log. */
export const ADMIN_ENDPOINTS = {
  settings: defineEndpoint({
    method: 'GET',
    path: '/admin/settings',
    response: { 200: AdminSettingsResponseSchema },
    errors: [400, 401, 403],
    access: { roles: ['ROLE_ADMIN'] },
    operationId: 'getAdminSettings',
    summary: 'Every setting with its current value',
    tag: 'admin',
  }),
  updateSettings: defineEndpoint({
    method: 'PUT',
    path: '/admin/settings',
    body: AdminSettingsUpdateSchema,
    response: { 200: AdminSettingsResponseSchema },
    errors: [400, 401, 403],
    access: { roles: ['ROLE_ADMIN'] },
    operationId: 'updateAdminSettings',
    summary: 'Changes the given settings (partial map); unknown keys or wrong types are refused',
    tag: 'admin',
  }),
  systemStatus: defineEndpoint({
    method: 'GET',
    path: '/admin/system/status',
    response: { 200: AdminSystemStatusSchema },
    errors: [400, 401, 403],
    access: { roles: ['ROLE_ADMIN'] },
    operationId: 'getAdminSystemStatus',
    summary: 'Warnings about the running server (e.g. no SMTP behind a public URL)',
    tag: 'admin',
  }),
  users: defineEndpoint({
    method: 'GET',
    path: '/admin/users',
    query: ListUsersQuerySchema,
    response: { 200: ListUsersResponseSchema },
    errors: [400, 401, 403],
    access: { roles: ['ROLE_ADMIN', 'ROLE_USER_ADMIN'] },
    operationId: 'listUsers',
    summary: 'Users ordered by email; q searches email, username, first and last name; paged',
    tag: 'admin',
  }),
  auditLog: defineEndpoint({
    method: 'GET',
    path: '/admin/audit-log',
    query: AuditLogQuerySchema,
    response: { 200: AuditLogResponseSchema },
    errors: [400, 401, 403],
    access: { roles: ['ROLE_ADMIN'] },
    operationId: 'getAuditLog',
    summary: 'The audit log, newest first, paged',
    tag: 'admin',
  }),
  createUser: defineEndpoint({
    method: 'POST',
    path: '/admin/users',
    body: CreateUserBodySchema,
    response: { 201: CreateUserResponseSchema },
    errors: [409, 400, 401, 403],
    access: { roles: ['ROLE_ADMIN', 'ROLE_USER_ADMIN'] },
    operationId: 'createUser',
    summary: 'Creates a user (the password must meet the policy)',
    tag: 'admin',
  }),
};
