import { randomUUID } from 'node:crypto';
import type { AdminUser } from '@shared/contract/admin-users';
import { API_BASE } from '@shared/contract/constants';
import { BackendErrorSchema } from '@shared/contract/errors';
import {
  CreateSenderGroupBodySchema,
  SENDER_GROUP_PATHS as PATHS,
  SenderGroupListSchema,
  SenderGroupParamsSchema,
  SenderGroupResponseSchema,
  UpdateSenderGroupBodySchema,
  UpdateUserSenderBodySchema,
  UserParamsSchema,
  type SenderGroup,
} from '@shared/contract/sender-groups';
import { AdminUserSchema } from '@shared/contract/admin-users';
import type { FastifyInstance } from 'fastify';
import { sql, type Selectable } from 'kysely';
import { z } from 'zod';
import { badRequest, conflict, notFound } from '../core/http-error';
import { routePlugin } from '../core/route-plugin';
import { toWireUser, type UserRow } from '../users/users-repository';
import { parseGroupLevels } from './senders';
import type { SenderGroupsTable } from './tables';

const errors = (...codes: number[]) => Object.fromEntries(codes.map((c) => [c, BackendErrorSchema]));
const ADMIN = { roles: ['ROLE_ADMIN'] } as const;
type GroupRow = Selectable<SenderGroupsTable>;

async function toWireGroup(app: FastifyInstance, group: GroupRow): Promise<SenderGroup> {
  const members = await app.db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('sender_group_id', '=', group.id)
    .executeTakeFirstOrThrow();
  return { groupUuid: group.uuid, name: group.name, levels: parseGroupLevels(group.levels), memberCount: Number(members.n) };
}

async function groupByUuid(app: FastifyInstance, groupUuid: string): Promise<GroupRow> {
  const group = await app.db.selectFrom('sender_groups').selectAll().where('uuid', '=', groupUuid).executeTakeFirst();
  if (!group) throw notFound('Sender group not found');
  return group;
}

/** Names are unique regardless of case, so two groups never look the same in a list. */
async function assertNameFree(app: FastifyInstance, name: string, exceptId?: number): Promise<void> {
  let query = app.db.selectFrom('sender_groups').select('id').where(sql`lower(name)`, '=', name.toLowerCase());
  if (exceptId !== undefined) query = query.where('id', '!=', exceptId);
  if (await query.executeTakeFirst()) throw conflict('A sender group with this name exists');
}

const sortedLevels = (levels: readonly number[]) => JSON.stringify([...levels].sort((a, b) => a - b));

/** The admin list's sender columns of some users (licensed, group uuid). */
export async function adminSenderFields(app: FastifyInstance, rows: readonly Pick<UserRow, 'licensed' | 'sender_group_id'>[]) {
  const ids = [...new Set(rows.map((r) => r.sender_group_id).filter((id): id is number => id !== null))];
  const groups = ids.length === 0 ? [] : await app.db.selectFrom('sender_groups').select(['id', 'uuid']).where('id', 'in', ids).execute();
  const uuids = new Map(groups.map((g) => [g.id, g.uuid]));
  return rows.map((r) => ({ licensed: r.licensed === 1, senderGroupUuid: r.sender_group_id === null ? null : (uuids.get(r.sender_group_id) ?? null) }));
}

/** Sender groups and per-user sender settings (contract: shared/contract/sender-groups.ts), ROLE_ADMIN only. */
export const senderAdminRoutes = routePlugin('kuvert-sender-admin-routes', async (app) => {
  app.get(
    `${API_BASE}${PATHS.list}`,
    { config: { access: ADMIN }, schema: { summary: 'Sender groups with their allowed security levels', tags: ['admin'], response: { 200: SenderGroupListSchema, ...errors(401, 403) } } },
    async () => {
      const rows = await app.db.selectFrom('sender_groups').selectAll().orderBy(sql`lower(name)`).orderBy('id').execute();
      return { groups: await Promise.all(rows.map((g) => toWireGroup(app, g))) };
    },
  );

  app.post(
    `${API_BASE}${PATHS.list}`,
    {
      config: { access: ADMIN },
      schema: { summary: 'Creates a sender group', tags: ['admin'], body: CreateSenderGroupBodySchema, response: { 201: SenderGroupResponseSchema, ...errors(400, 401, 403, 409) } },
    },
    async (request, reply) => {
      const name = request.body.name.trim();
      await assertNameFree(app, name);
      const row = await app.db
        .insertInto('sender_groups')
        .values({ uuid: randomUUID(), name, levels: sortedLevels(request.body.levels), created_at: Date.now() })
        .returningAll()
        .executeTakeFirstOrThrow();
      void reply.code(201);
      return { group: await toWireGroup(app, row) };
    },
  );

  app.patch(
    `${API_BASE}${PATHS.oneRoute}`,
    {
      config: { access: ADMIN },
      schema: {
        summary: 'Renames a sender group or sets its levels',
        tags: ['admin'],
        params: SenderGroupParamsSchema,
        body: UpdateSenderGroupBodySchema,
        response: { 200: SenderGroupResponseSchema, ...errors(400, 401, 403, 404, 409) },
      },
    },
    async (request) => {
      const group = await groupByUuid(app, request.params.groupUuid);
      const name = request.body.name?.trim();
      if (name !== undefined) await assertNameFree(app, name, group.id);
      const changes = { ...(name !== undefined ? { name } : {}), ...(request.body.levels ? { levels: sortedLevels(request.body.levels) } : {}) };
      if (Object.keys(changes).length > 0) await app.db.updateTable('sender_groups').set(changes).where('id', '=', group.id).execute();
      return { group: await toWireGroup(app, await groupByUuid(app, group.uuid)) };
    },
  );

  app.delete(
    `${API_BASE}${PATHS.oneRoute}`,
    {
      config: { access: ADMIN },
      schema: { summary: 'Deletes a sender group (members fall back to the global levels)', tags: ['admin'], params: SenderGroupParamsSchema, response: { 204: z.null(), ...errors(401, 403, 404) } },
    },
    async (request, reply) => {
      const group = await groupByUuid(app, request.params.groupUuid);
      await app.db.transaction().execute(async (trx) => {
        await trx.updateTable('users').set({ sender_group_id: null }).where('sender_group_id', '=', group.id).execute();
        await trx.deleteFrom('sender_groups').where('id', '=', group.id).execute();
      });
      return reply.code(204).send(null);
    },
  );

  app.patch(
    `${API_BASE}${PATHS.userSenderRoute}`,
    {
      config: { access: ADMIN },
      schema: {
        summary: "Sets a user's licence and sender group",
        tags: ['admin'],
        params: UserParamsSchema,
        body: UpdateUserSenderBodySchema,
        response: { 200: AdminUserSchema, ...errors(400, 401, 403, 404) },
      },
    },
    async (request): Promise<AdminUser> => {
      const user = await app.users.findByUuid(request.params.userUuid);
      if (!user) throw notFound('User not found');
      const { licensed, senderGroupUuid } = request.body;
      let groupId: number | null | undefined;
      if (senderGroupUuid === null) groupId = null;
      else if (senderGroupUuid !== undefined) {
        const group = await app.db.selectFrom('sender_groups').select('id').where('uuid', '=', senderGroupUuid).executeTakeFirst();
        if (!group) throw badRequest('No such sender group', { field: 'senderGroupUuid', reason: 'unknownGroup' });
        groupId = group.id;
      }
      await app.users.update(user.id, { ...(licensed !== undefined ? { licensed: licensed ? 1 : 0 } : {}), ...(groupId !== undefined ? { sender_group_id: groupId } : {}) });
      await app.auditLog.record({ actorUserId: request.user!.id, action: 'user.sender', subjectUserId: user.id, details: { licensed, senderGroupUuid } });
      const row = (await app.users.findById(user.id))!;
      const secupass = await app.db.selectFrom('secupass').select('state').where('user_id', '=', row.id).executeTakeFirst();
      const [sender] = await adminSenderFields(app, [row]);
      const state = secupass?.state === 'active' || secupass?.state === 'reset' ? secupass.state : 'none';
      return { ...toWireUser(row), disabled: row.disabled === 1, emailVerified: row.email_verified === 1, secupassState: state, ...sender! };
    },
  );
});
