import { ADMIN_ENDPOINTS } from '@shared/contract/endpoints/admin';

import { type SystemWarning } from '@shared/contract/settings';
import { mailboxExposed } from '../mail/mailbox-exposure';
import { badRequest, conflict } from '../core/http-error';
import { settingsConsistencyProblems, settingValueProblem } from '../settings/defaults';
import { maskSecretSettings, restoreMaskedSecrets } from '../settings/secret-settings';
import { assertPasswordMeetsPolicy } from '../security/password-policy';
import { hashPassword } from '../users/passwords';
import { DEFAULT_USER_ROLES, roleNamesOf, toWireUser, UserExistsError } from '../users/users-repository';
import { registerEndpoint } from '../core/endpoint-route';
import { auditLogCsv } from '../audit/audit-csv';
import { AUDIT_CSV_MAX_ROWS } from '@shared/contract/audit';
import { contentDisposition } from '@shared/contract/content-disposition';
import { assertLicenceAvailable, DATA_ROOM_CREATOR_ROLE } from '../licence/licence-counts';
import { routePlugin } from '../core/route-plugin';
import { adminSenderFields } from '../deliveries/sender-routes';
import { assertMayHandOutRoles, sendInvitation, unusablePasswordHash } from '../user-admin/user-admin';

/** Administration calls of the core: settings, user list and creation, audit log. */
export const adminRoutes = routePlugin('kuvert-admin-routes', async (app) => {
  registerEndpoint(app, ADMIN_ENDPOINTS.settings, async () => ({ settings: maskSecretSettings(await app.settings.getAll()) }));

  registerEndpoint(app, ADMIN_ENDPOINTS.updateSettings, async (request) => {
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
  });

  registerEndpoint(app, ADMIN_ENDPOINTS.systemStatus, async (_request, reply) => {
    const warnings: SystemWarning[] = [];
    if (await mailboxExposed(app)) warnings.push('mailboxNotLocal');
    void reply.header('cache-control', 'no-store');
    return { warnings };
  });

  registerEndpoint(app, ADMIN_ENDPOINTS.users, async (request) => {
    const { q, page, pageSize } = request.query;
    const { rows, total } = await app.users.list({ q, page, pageSize });
    const sender = await adminSenderFields(app, rows);
    return {
      users: rows.map((row, i) => ({ ...toWireUser(row), disabled: row.disabled === 1, emailVerified: row.email_verified === 1, secupassState: toSecuPassState(row.secupass_state), ...sender[i]! })),
      total,
      page,
      pageSize,
    };
  });

  registerEndpoint(app, ADMIN_ENDPOINTS.auditLog, async (request) => {
    const { page, pageSize, ...filter } = request.query;
    const { entries, total } = await app.auditLog.list({ ...filter, page, pageSize });
    return { entries, total, page, pageSize };
  });

  registerEndpoint(app, ADMIN_ENDPOINTS.auditLogCsv, async (request, reply) => {
    const { entries } = await app.auditLog.list({ ...request.query, page: 1, pageSize: AUDIT_CSV_MAX_ROWS });
    return reply
      .type('text/csv; charset=utf-8')
      .header('cache-control', 'no-store')
      .header('content-disposition', contentDisposition(`kuvert-audit-log-${new Date().toISOString().slice(0, 10)}.csv`))
      .send(auditLogCsv(entries));
  });

  registerEndpoint(app, ADMIN_ENDPOINTS.createUser, async (request, reply) => {
    const body = request.body;
    if (body.password !== undefined) await assertPasswordMeetsPolicy(app.settings, body.password);
    const roles = body.roleNames ?? DEFAULT_USER_ROLES;
    assertMayHandOutRoles(request.user!, roles);
    // New accounts hold the sender licence unless created without it; both caps are checked first.
    const licensed = body.licensed ?? true;
    if (licensed) await assertLicenceAvailable(app.db, app.config, 'senders');
    if (roles.includes(DATA_ROOM_CREATOR_ROLE)) await assertLicenceAvailable(app.db, app.config, 'dataRoomCreators');
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
        licensed,
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
  });
});

function toSecuPassState(state: string): 'none' | 'active' | 'reset' {
  return state === 'active' || state === 'reset' ? state : 'none';
}
