import { randomUUID } from 'node:crypto';
import type { AdminUser } from '@shared/contract/admin-users';
import { SENDER_GROUP_ENDPOINTS } from '@shared/contract/endpoints/sender-groups';
import { type SenderGroup } from '@shared/contract/sender-groups';
import type { FastifyInstance } from 'fastify';
import { sql, type Selectable } from 'kysely';
import { badRequest, conflict, notFound } from '../core/http-error';
import { registerEndpoint } from '../core/endpoint-route';
import { routePlugin } from '../core/route-plugin';
import { toWireUser, type UserRow } from '../users/users-repository';
import { assertLicenceAvailable } from '../licence/licence-counts';
import { parseGroupLevels } from './senders';
import type { SenderGroupsTable } from './tables';

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
  registerEndpoint(app, SENDER_GROUP_ENDPOINTS.list, async () => {
    const rows = await app.db.selectFrom('sender_groups').selectAll().orderBy(sql`lower(name)`).orderBy('id').execute();
    return { groups: await Promise.all(rows.map((g) => toWireGroup(app, g))) };
  });

  registerEndpoint(app, SENDER_GROUP_ENDPOINTS.create, async (request, reply) => {
    const name = request.body.name.trim();
    await assertNameFree(app, name);
    const row = await app.db
      .insertInto('sender_groups')
      .values({ uuid: randomUUID(), name, levels: sortedLevels(request.body.levels), created_at: Date.now() })
      .returningAll()
      .executeTakeFirstOrThrow();
    void reply.code(201);
    return { group: await toWireGroup(app, row) };
  });

  registerEndpoint(app, SENDER_GROUP_ENDPOINTS.update, async (request) => {
    const group = await groupByUuid(app, request.params.groupUuid);
    const name = request.body.name?.trim();
    if (name !== undefined) await assertNameFree(app, name, group.id);
    const changes = { ...(name !== undefined ? { name } : {}), ...(request.body.levels ? { levels: sortedLevels(request.body.levels) } : {}) };
    if (Object.keys(changes).length > 0) await app.db.updateTable('sender_groups').set(changes).where('id', '=', group.id).execute();
    return { group: await toWireGroup(app, await groupByUuid(app, group.uuid)) };
  });

  registerEndpoint(app, SENDER_GROUP_ENDPOINTS.remove, async (request, reply) => {
    const group = await groupByUuid(app, request.params.groupUuid);
    await app.db.transaction().execute(async (trx) => {
      await trx.updateTable('users').set({ sender_group_id: null }).where('sender_group_id', '=', group.id).execute();
      await trx.deleteFrom('sender_groups').where('id', '=', group.id).execute();
    });
    return reply.code(204).send(null);
  });

  registerEndpoint(app, SENDER_GROUP_ENDPOINTS.userSender, async (request): Promise<AdminUser> => {
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
    // Licensing one more counts against KUVERT_LICENCE_SENDERS (409 with the figures at the cap).
    if (licensed === true && user.licensed !== 1) await assertLicenceAvailable(app.db, app.config, 'senders');
    await app.users.update(user.id, { ...(licensed !== undefined ? { licensed: licensed ? 1 : 0 } : {}), ...(groupId !== undefined ? { sender_group_id: groupId } : {}) });
    await app.auditLog.record({ actorUserId: request.user!.id, action: 'user.sender', subjectUserId: user.id, details: { licensed, senderGroupUuid } });
    const row = (await app.users.findById(user.id))!;
    const secupass = await app.db.selectFrom('secupass').select('state').where('user_id', '=', row.id).executeTakeFirst();
    const [sender] = await adminSenderFields(app, [row]);
    const state = secupass?.state === 'active' || secupass?.state === 'reset' ? secupass.state : 'none';
    return { ...toWireUser(row), disabled: row.disabled === 1, emailVerified: row.email_verified === 1, secupassState: state, ...sender! };
  });
});
