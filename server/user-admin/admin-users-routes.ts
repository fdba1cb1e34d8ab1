import {
  AddBannedRecipientBodySchema,
  ADMIN_USERS_PATHS,
  AdminUserSchema,
  type AdminUser,
  BannedRecipientsSchema,
  UpdateUserBodySchema,
  UserUuidParamsSchema,
} from '@shared/contract/admin-users';
import { API_BASE, type RoleName } from '@shared/contract/constants';
import { DELIVERY_SETTING_KEYS } from '@shared/contract/deliveries';
import { BackendErrorSchema } from '@shared/contract/errors';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { accessDenied, notFound } from '../core/http-error';
import { routePlugin } from '../core/route-plugin';
import { parseList } from '../deliveries/rules';
import { adminSenderFields } from '../deliveries/sender-routes';
import { anotherAdminExists, deleteUserAccount, sendInvitation, setUserDisabled, userConflict } from './user-admin';
import { mayManageAccountOf, roleNamesOf, toWireUser, type UserRow } from '../users/users-repository';

const errors = (...codes: number[]) => Object.fromEntries(codes.map((c) => [c, BackendErrorSchema]));
const noContent = z.null().describe('No content');
const USER_ADMINS: RoleName[] = ['ROLE_ADMIN', 'ROLE_USER_ADMIN'];
/** Roles only an administrator hands out or takes away. */
const ADMIN_ONLY_ROLES: readonly RoleName[] = ['ROLE_ADMIN', 'ROLE_ROOT'];
const EntryParamsSchema = z.object({ entry: z.string().min(1).max(254) }).strict();

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
  app.patch(
    `${API_BASE}${ADMIN_USERS_PATHS.one}`,
    {
      config: { access: { roles: USER_ADMINS } },
      schema: {
        summary: 'Changes names, language and roles of a user',
        tags: ['admin'],
        params: UserUuidParamsSchema,
        body: UpdateUserBodySchema,
        response: { 200: AdminUserSchema, ...errors(400, 401, 403, 404, 409) },
      },
    },
    async (request) => {
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
        if (!isAdmin(actor) && [...added, ...removed].some((r) => ADMIN_ONLY_ROLES.includes(r))) {
          throw accessDenied('Only administrators may grant or take ROLE_ADMIN or ROLE_ROOT');
        }
        if (removed.includes('ROLE_ADMIN')) await assertAdminStays(app, actor, subject, 'demote');
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
    },
  );

  for (const [path, disabled] of [
    [ADMIN_USERS_PATHS.disable, true],
    [ADMIN_USERS_PATHS.enable, false],
  ] as const) {
    app.post(
      `${API_BASE}${path}`,
      {
        config: { access: { roles: USER_ADMINS } },
        schema: {
          summary: disabled ? 'Disables a user: every session ends, sign-in answers code 8' : 'Enables a disabled user again',
          tags: ['admin'],
          params: UserUuidParamsSchema,
          response: { 200: AdminUserSchema, ...errors(401, 403, 404, 409) },
        },
      },
      async (request) => {
        const actor = request.user!;
        const subject = await manageableUser(app, actor, request.params.userUuid);
        if (disabled) await assertAdminStays(app, actor, subject, 'disable');
        if ((subject.disabled === 1) !== disabled) await setUserDisabled(app, actor, subject, disabled);
        return adminUserOf(app, subject.uuid);
      },
    );
  }

  app.delete(
    `${API_BASE}${ADMIN_USERS_PATHS.one}`,
    {
      config: { access: { roles: USER_ADMINS } },
      schema: {
        summary: 'Deletes a user with the deliveries they sent (received ones stay with their senders) (204)',
        tags: ['admin'],
        params: UserUuidParamsSchema,
        response: { 204: noContent, ...errors(401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      const actor = request.user!;
      const subject = await manageableUser(app, actor, request.params.userUuid);
      await assertAdminStays(app, actor, subject, 'delete');
      await deleteUserAccount(app, actor, subject);
      return reply.code(204).send(null);
    },
  );

  app.post(
    `${API_BASE}${ADMIN_USERS_PATHS.invitation}`,
    {
      config: { access: { roles: USER_ADMINS } },
      schema: {
        summary: 'Mails a new invitation (set-password link) to a user who has not proven the address yet (204)',
        tags: ['admin'],
        params: UserUuidParamsSchema,
        response: { 204: noContent, ...errors(401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      const actor = request.user!;
      const subject = await manageableUser(app, actor, request.params.userUuid);
      if (subject.email_verified === 1) throw userConflict('The user has proven the address already; a password reset is theirs to ask', 'alreadyVerified');
      await sendInvitation(app, subject, actor);
      await app.auditLog.record({ actorUserId: actor.id, action: 'user.invited', subjectUserId: subject.id, details: { resent: true } });
      return reply.code(204).send(null);
    },
  );

  app.get(
    `${API_BASE}${ADMIN_USERS_PATHS.bannedRecipients}`,
    {
      config: { access: { roles: USER_ADMINS } },
      schema: { summary: 'Banned recipient addresses and @domains', tags: ['admin'], response: { 200: BannedRecipientsSchema, ...errors(401, 403) } },
    },
    async () => ({ entries: bannedList(await app.settings.get<string>(DELIVERY_SETTING_KEYS.bannedRecipients)) }),
  );

  app.post(
    `${API_BASE}${ADMIN_USERS_PATHS.bannedRecipients}`,
    {
      config: { access: { roles: USER_ADMINS } },
      schema: {
        summary: 'Bans a recipient address or @domain (nobody can send to it); answers the list',
        tags: ['admin'],
        body: AddBannedRecipientBodySchema,
        response: { 200: BannedRecipientsSchema, ...errors(400, 401, 403) },
      },
    },
    async (request) => {
      const entries = bannedList(await app.settings.get<string>(DELIVERY_SETTING_KEYS.bannedRecipients));
      const entry = request.body.entry;
      if (!entries.includes(entry)) {
        entries.push(entry);
        await app.settings.set({ [DELIVERY_SETTING_KEYS.bannedRecipients]: entries.join(', ') });
        await app.auditLog.record({ actorUserId: request.user!.id, action: 'recipient.banned', subjectUserId: null, details: { entry } });
      }
      return { entries };
    },
  );

  app.delete(
    `${API_BASE}${ADMIN_USERS_PATHS.bannedRecipient}`,
    {
      config: { access: { roles: USER_ADMINS } },
      schema: {
        summary: 'Lifts the ban of an address or @domain; answers the list (404 when not banned)',
        tags: ['admin'],
        params: EntryParamsSchema,
        response: { 200: BannedRecipientsSchema, ...errors(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const entry = request.params.entry.trim().toLowerCase();
      const entries = bannedList(await app.settings.get<string>(DELIVERY_SETTING_KEYS.bannedRecipients));
      if (!entries.includes(entry)) throw notFound('Not banned');
      const rest = entries.filter((e) => e !== entry);
      await app.settings.set({ [DELIVERY_SETTING_KEYS.bannedRecipients]: rest.join(', ') });
      await app.auditLog.record({ actorUserId: request.user!.id, action: 'recipient.unbanned', subjectUserId: null, details: { entry } });
      return { entries: rest };
    },
  );
});
