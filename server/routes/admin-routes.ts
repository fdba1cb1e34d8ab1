import { CreateUserBodySchema, CreateUserResponseSchema, ListUsersQuerySchema, ListUsersResponseSchema } from '@shared/contract/admin-users';
import { AUDIT_PATHS, AuditLogQuerySchema, AuditLogResponseSchema } from '@shared/contract/audit';
import { API_BASE } from '@shared/contract/constants';
import { BackendErrorSchema } from '@shared/contract/errors';
import { ADMIN_SYSTEM_STATUS_PATH, AdminSettingsResponseSchema, AdminSettingsUpdateSchema, AdminSystemStatusSchema, type SystemWarning } from '@shared/contract/settings';
import { mailboxExposed } from '../mail/mailbox-exposure';
import { badRequest, conflict } from '../core/http-error';
import { settingsConsistencyProblems, settingValueProblem } from '../settings/defaults';
import { maskSecretSettings, restoreMaskedSecrets } from '../settings/secret-settings';
import { assertPasswordMeetsPolicy } from '../security/password-policy';
import { hashPassword } from '../users/passwords';
import { DEFAULT_USER_ROLES, roleNamesOf, toWireUser, UserExistsError } from '../users/users-repository';
import { routePlugin } from '../core/route-plugin';
import { adminSenderFields } from '../deliveries/sender-routes';
import { sendInvitation, unusablePasswordHash } from '../user-admin/user-admin';

const errors = { 400: BackendErrorSchema, 401: BackendErrorSchema, 403: BackendErrorSchema };

/** Administration calls of the core: settings, user list and creation, audit log. */
export const adminRoutes = routePlugin('kuvert-admin-routes', async (app) => {
  app.get(
    `${API_BASE}/admin/settings`,
    {
      config: { access: { roles: ['ROLE_ADMIN'] } },
      schema: { summary: 'Every setting with its current value', tags: ['admin'], response: { 200: AdminSettingsResponseSchema, ...errors } },
    },
    async () => ({ settings: maskSecretSettings(await app.settings.getAll()) }),
  );

  app.put(
    `${API_BASE}/admin/settings`,
    {
      config: { access: { roles: ['ROLE_ADMIN'] } },
      schema: {
        summary: 'Changes the given settings (partial map); unknown keys or wrong types are refused',
        tags: ['admin'],
        body: AdminSettingsUpdateSchema,
        response: { 200: AdminSettingsResponseSchema, ...errors },
      },
    },
    async (request) => {
      const problems = Object.entries(request.body)
        .map(([key, value]) => ({ key, problem: settingValueProblem(key, value) }))
        .filter((p) => p.problem !== null);
      if (problems.length > 0) throw badRequest('Invalid settings', { problems });
      const stored = await app.settings.getAll();
      const restored = restoreMaskedSecrets(request.body, stored);
      if ('problem' in restored) throw badRequest('Invalid settings', { problems: [restored.problem] });
      const together = settingsConsistencyProblems({ ...stored, ...restored.update });
      if (together.length > 0) throw badRequest('Invalid settings', { problems: together });
      await app.settings.set(restored.update);
      return { settings: maskSecretSettings(await app.settings.getAll()) };
    },
  );

  app.get(
    `${API_BASE}${ADMIN_SYSTEM_STATUS_PATH}`,
    {
      config: { access: { roles: ['ROLE_ADMIN'] } },
      schema: { summary: 'Warnings about the running server (e.g. no SMTP behind a public URL)', tags: ['admin'], response: { 200: AdminSystemStatusSchema, ...errors } },
    },
    async (_request, reply) => {
      const warnings: SystemWarning[] = [];
      if (await mailboxExposed(app)) warnings.push('mailboxNotLocal');
      void reply.header('cache-control', 'no-store');
      return { warnings };
    },
  );

  app.get(
    `${API_BASE}/admin/users`,
    {
      config: { access: { roles: ['ROLE_ADMIN', 'ROLE_USER_ADMIN'] } },
      schema: {
        summary: 'Users ordered by email; q searches email, username, first and last name; paged',
        tags: ['admin'],
        querystring: ListUsersQuerySchema,
        response: { 200: ListUsersResponseSchema, ...errors },
      },
    },
    async (request) => {
      const { q, page, pageSize } = request.query;
      const { rows, total } = await app.users.list({ q, page, pageSize });
      const sender = await adminSenderFields(app, rows);
      return {
        users: rows.map((row, i) => ({ ...toWireUser(row), disabled: row.disabled === 1, emailVerified: row.email_verified === 1, secupassState: toSecuPassState(row.secupass_state), ...sender[i]! })),
        total,
        page,
        pageSize,
      };
    },
  );

  app.get(
    `${API_BASE}${AUDIT_PATHS.adminLog}`,
    {
      config: { access: { roles: ['ROLE_ADMIN'] } },
      schema: {
        summary: 'The audit log, newest first, paged',
        tags: ['admin'],
        querystring: AuditLogQuerySchema,
        response: { 200: AuditLogResponseSchema, ...errors },
      },
    },
    async (request) => {
      const { page, pageSize, action } = request.query;
      const { entries, total } = await app.auditLog.list({ page, pageSize, action });
      return { entries, total, page, pageSize };
    },
  );

  app.post(
    `${API_BASE}/admin/users`,
    {
      config: { access: { roles: ['ROLE_ADMIN', 'ROLE_USER_ADMIN'] } },
      schema: {
        summary: 'Creates a user (the password must meet the policy)',
        tags: ['admin'],
        body: CreateUserBodySchema,
        response: { 201: CreateUserResponseSchema, 409: BackendErrorSchema, ...errors },
      },
    },
    async (request, reply) => {
      const body = request.body;
      if (body.password !== undefined) await assertPasswordMeetsPolicy(app.settings, body.password);
      // Only administrators hand out the administrator role.
      const roles = body.roleNames ?? DEFAULT_USER_ROLES;
      const callerIsAdmin = roleNamesOf(request.user!).includes('ROLE_ADMIN');
      if (!callerIsAdmin && (roles.includes('ROLE_ADMIN') || roles.includes('ROLE_ROOT'))) {
        throw badRequest('Only administrators may grant ROLE_ADMIN or ROLE_ROOT');
      }
      try {
        const row = await app.users.create({
          username: body.username ?? body.email,
          email: body.email,
          passwordHash: body.password !== undefined ? await hashPassword(body.password) : await unusablePasswordHash(),
          firstName: body.firstName,
          lastName: body.lastName,
          roles,
          language: body.language,
          // Made by someone else: the owner proves the address (code by mail at the first sign-in,
          // reset link or signup link) before deliveries to it reach this account.
          emailVerified: false,
          totpRequired: body.totpRequired ?? false,
          disabled: body.disabled ?? false,
        });
        const invited = body.password === undefined;
        await app.auditLog.record({ actorUserId: request.user!.id, action: 'user.created', subjectUserId: row.id, details: { roles: roleNamesOf(row), invited } });
        // The account exists either way; a failed mail is logged and "Resend invitation" repeats it.
        if (invited) await sendInvitation(app, row, request.user!).catch((err: unknown) => request.log.error({ err }, 'invitation mail failed'));
        void reply.code(201);
        return { user: toWireUser(row), invited };
      } catch (err) {
        if (err instanceof UserExistsError) throw conflict(err.message);
        throw err;
      }
    },
  );
});

function toSecuPassState(state: string): 'none' | 'active' | 'reset' {
  return state === 'active' || state === 'reset' ? state : 'none';
}
