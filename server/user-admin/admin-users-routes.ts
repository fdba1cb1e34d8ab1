import type { AdminUser } from '@shared/contract/admin-users';
import { DELIVERY_SETTING_KEYS } from '@shared/contract/deliveries';
import { ADMIN_ENDPOINTS } from '@shared/contract/endpoints/admin';
import type { FastifyInstance } from 'fastify';
import { registerEndpoint } from '../core/endpoint-route';
import { accessDenied, notFound } from '../core/http-error';
import { routePlugin } from '../core/route-plugin';
import { parseList } from '../deliveries/rules';
import { adminSenderFields } from '../deliveries/sender-routes';
import { assertLicenceAvailable, DATA_ROOM_CREATOR_ROLE, licencesHeldBy } from '../licence/licence-counts';
import { anotherAdminExists, assertMayHandOutRoles, deleteUserAccount, sendInvitation, setUserDisabled, userConflict } from './user-admin';
import { mayManageAccountOf, roleNamesOf, toWireUser, type UserRow } from '../users/users-repository';

/** Roles only an administrator hands out or takes away. */

const isAdmin = (user: Pick<UserRow, 'roles'>) => roleNamesOf(user).includes('ROLE_ADMIN');

/** The subject of a call, after the rule "only administrators touch administrators" (404, 403). */
async function manageableUser(app: FastifyInstance, actor: UserRow, userUuid: string): Promise<UserRow> {
  const subject = await app.users.findByUuid(userUuid);
  if (!subject) throw notFound('No such user');
  if (!mayManageAccountOf(actor, subject)) throw accessDenied("Only administrators may change an administrator's account");
  return subject;
}

/** An administrator who would leave the installation without one (self or last): 409. */
async function assertAdminStays(app: FastifyInstance, actor: UserRow, subject: UserRow, what: string): Promise<void> {
  if (actor.id === subject.id) throw userConflict(`You cannot ${what} your own account`, 'self');
  if (isAdmin(subject) && !(await anotherAdminExists(app, subject.id))) throw userConflict(`The last administrator cannot be ${what}d`, 'lastAdmin');
}

async function adminUserOf(app: FastifyInstance, uuid: string): Promise<AdminUser> {
  const row = await app.users.findByUuid(uuid);
  if (!row) throw notFound('No such user');
  const secupass = await app.db.selectFrom('secupass').select('state').where('user_id', '=', row.id).executeTakeFirst();
  const [sender] = await adminSenderFields(app, [row]);
  return {
    ...toWireUser(row),
    disabled: row.disabled === 1,
    emailVerified: row.email_verified === 1,
    secupassState: secupass?.state === 'active' || secupass?.state === 'reset' ? secupass.state : ('none' as const),
    ...sender!,
  };
}

/** The stored list, read as the send rules read it (comma-separated, lower case). */
const bannedList = (value: string | undefined | null): string[] => [...new Set(parseList(value))];

/**
 * User administration (issue 17 §1): edit, disable/enable, delete, resend the invitation, banned
 * recipients. ROLE_ADMIN and ROLE_USER_ADMIN; only ROLE_ADMIN touches administrators
 * (`mayManageAccountOf`). Every change is in the audit log. List and create: routes/admin-routes.ts.
 */
export const adminUsersRoutes = routePlugin('kuvert-admin-users-routes', async (app) => {
  registerEndpoint(app, ADMIN_ENDPOINTS.updateUser, async (request) => {
    const actor = request.user!;
    const subject = await manageableUser(app, actor, request.params.userUuid);
    const body = request.body;
    const changes: Partial<UserRow> = {};
    const details: Record<string, unknown> = {};
    if (body.firstName !== undefined) changes.first_name = body.firstName.trim();
    if (body.lastName !== undefined) changes.last_name = body.lastName.trim();
    if (body.language !== undefined) changes.language = body.language;
    if (body.roleNames !== undefined) {
      const before = roleNamesOf(subject);
      const after = [...new Set(body.roleNames)];
      const added = after.filter((r) => !before.includes(r));
      const removed = before.filter((r) => !after.includes(r));
      assertMayHandOutRoles(actor, [...added, ...removed]);
      if (removed.includes('ROLE_ADMIN')) await assertAdminStays(app, actor, subject, 'demote');
      if (added.includes(DATA_ROOM_CREATOR_ROLE)) await assertLicenceAvailable(app.db, app.config, 'dataRoomCreators');
      changes.roles = JSON.stringify(after);
      if (added.length > 0) details.rolesAdded = added;
      if (removed.length > 0) details.rolesRemoved = removed;
    }
    for (const key of ['firstName', 'lastName', 'language'] as const) if (body[key] !== undefined) details[key] = body[key];
    await app.db.transaction().execute(async (trx) => {
      await trx.updateTable('users').set({ ...changes, updated_at: Date.now() }).where('id', '=', subject.id).execute();
      await app.auditLog.record({ actorUserId: actor.id, action: 'user.updated', subjectUserId: subject.id, details }, trx);
    });
    return adminUserOf(app, subject.uuid);
  });

  /** Disable or enable: an administrator stays (self, last one); a no-op when already so. */
  const setDisabled = async (actor: UserRow, userUuid: string, disabled: boolean): Promise<AdminUser> => {
    const subject = await manageableUser(app, actor, userUuid);
    if (disabled) await assertAdminStays(app, actor, subject, 'disable');
    // A disabled account holds no licence: enabling it takes its seats again, so each needs room under its cap.
    else if (subject.disabled === 1) for (const kind of licencesHeldBy(subject)) await assertLicenceAvailable(app.db, app.config, kind);
    if ((subject.disabled === 1) !== disabled) await setUserDisabled(app, actor, subject, disabled);
    return adminUserOf(app, subject.uuid);
  };
  registerEndpoint(app, ADMIN_ENDPOINTS.disableUser, async (request) => setDisabled(request.user!, request.params.userUuid, true));
  registerEndpoint(app, ADMIN_ENDPOINTS.enableUser, async (request) => setDisabled(request.user!, request.params.userUuid, false));

  registerEndpoint(app, ADMIN_ENDPOINTS.deleteUser, async (request, reply) => {
    const actor = request.user!;
    const subject = await manageableUser(app, actor, request.params.userUuid);
    await assertAdminStays(app, actor, subject, 'delete');
    await deleteUserAccount(app, actor, subject);
    return reply.code(204).send(null);
  });

  registerEndpoint(app, ADMIN_ENDPOINTS.resendInvitation, async (request, reply) => {
    const actor = request.user!;
    const subject = await manageableUser(app, actor, request.params.userUuid);
    if (subject.email_verified === 1) throw userConflict('The user has proven the address already; a password reset is theirs to ask', 'alreadyVerified');
    await sendInvitation(app, subject, actor);
    await app.auditLog.record({ actorUserId: actor.id, action: 'user.invited', subjectUserId: subject.id, details: { resent: true } });
    return reply.code(204).send(null);
  });

  registerEndpoint(app, ADMIN_ENDPOINTS.bannedRecipients, async () => ({ entries: bannedList(await app.settings.get<string>(DELIVERY_SETTING_KEYS.bannedRecipients)) }));

  registerEndpoint(app, ADMIN_ENDPOINTS.banRecipient, async (request) => {
    const entries = bannedList(await app.settings.get<string>(DELIVERY_SETTING_KEYS.bannedRecipients));
    const entry = request.body.entry;
    if (!entries.includes(entry)) {
      entries.push(entry);
      await app.settings.set({ [DELIVERY_SETTING_KEYS.bannedRecipients]: entries.join(', ') });
      await app.auditLog.record({ actorUserId: request.user!.id, action: 'recipient.banned', subjectUserId: null, details: { entry } });
    }
    return { entries };
  });

  registerEndpoint(app, ADMIN_ENDPOINTS.unbanRecipient, async (request) => {
    const entry = request.params.entry.trim().toLowerCase();
    const entries = bannedList(await app.settings.get<string>(DELIVERY_SETTING_KEYS.bannedRecipients));
    if (!entries.includes(entry)) throw notFound('Not banned');
    const rest = entries.filter((e) => e !== entry);
    await app.settings.set({ [DELIVERY_SETTING_KEYS.bannedRecipients]: rest.join(', ') });
    await app.auditLog.record({ actorUserId: request.user!.id, action: 'recipient.unbanned', subjectUserId: null, details: { entry } });
    return { entries: rest };
  });
});
