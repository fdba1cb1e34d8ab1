// In-app notices (issue 32 §1, server/README "Room notices"): what the room mails say, kept per
// user for the bell in the header. Written beside each mail (room-notices.ts); read only by their
// own user — another user's notice answers 404, as if it did not exist.
import { NOTICE_ENDPOINTS } from '@shared/contract/endpoints/notices';
import type { Notice, NoticeKind, NoticeList } from '@shared/contract/notices';
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Generated, Selectable } from 'kysely';
import { registerEndpoint } from '../../core/endpoint-route';
import { notFound } from '../../core/http-error';
import { requestContext, type RequestContext } from '../../core/request-context';

export interface NoticesTable {
  id: Generated<number>;
  uuid: string;
  user_id: number;
  kind: NoticeKind;
  room_uuid: string;
  /** 0/1. */
  secure: number;
  /** Null for a Secure room (its name is sealed). */
  room_name: string | null;
  actor_name: string | null;
  role: string | null;
  created_at: number;
  read_at: number | null;
}

declare module '../../db/schema' {
  interface Database {
    notices: NoticesTable;
  }
}

/** Stores one notice; like the mail, a failure is logged and the change it reports stands. */
export async function recordNotice(
  app: FastifyInstance,
  log: FastifyBaseLogger,
  userId: number,
  notice: { kind: NoticeKind; room: { uuid: string; secure: boolean; name: string | null }; actorName: string | null; role?: string | null },
): Promise<void> {
  await app.db
    .insertInto('notices')
    .values({
      uuid: randomUUID(),
      user_id: userId,
      kind: notice.kind,
      room_uuid: notice.room.uuid,
      secure: notice.room.secure ? 1 : 0,
      room_name: notice.room.secure ? null : notice.room.name,
      actor_name: notice.actorName,
      role: notice.role ?? null,
      created_at: Date.now(),
      read_at: null,
    })
    .execute()
    .catch((err: unknown) => log.error({ err, kind: notice.kind }, 'room notice not stored'));
}

const toNotice = (row: Selectable<NoticesTable>): Notice => ({
  uuid: row.uuid,
  kind: row.kind,
  roomUuid: row.room_uuid,
  secure: Number(row.secure) === 1,
  roomName: row.room_name,
  actorName: row.actor_name,
  role: row.role,
  createdAt: new Date(Number(row.created_at)).toISOString(),
  read: row.read_at !== null,
});

export async function listNotices(ctx: RequestContext, { page, pageSize }: { page: number; pageSize: number }): Promise<NoticeList> {
  const own = ctx.app.db.selectFrom('notices').where('user_id', '=', ctx.user.id);
  const [rows, total, unread] = await Promise.all([
    own.selectAll().orderBy('id', 'desc').limit(pageSize).offset((page - 1) * pageSize).execute(),
    own.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    own.where('read_at', 'is', null).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { items: rows.map(toNotice), unread: Number(unread.n), total: Number(total.n), page, pageSize };
}

export async function readNotice(ctx: RequestContext, noticeUuid: string): Promise<void> {
  const result = await ctx.app.db
    .updateTable('notices')
    .set({ read_at: Date.now() })
    .where('uuid', '=', noticeUuid)
    .where('user_id', '=', ctx.user.id)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) throw notFound('No such notice');
}

export async function readAllNotices(ctx: RequestContext): Promise<void> {
  await ctx.app.db.updateTable('notices').set({ read_at: Date.now() }).where('user_id', '=', ctx.user.id).where('read_at', 'is', null).execute();
}

/** GET /notices, POST /notices/{uuid}/read, POST /notices/read-all (signed-in users, own notices only). */
export function registerNoticeRoutes(app: FastifyInstance): void {
  registerEndpoint(app, NOTICE_ENDPOINTS.list, async (request) => listNotices(requestContext(app, request), request.query));
  registerEndpoint(app, NOTICE_ENDPOINTS.read, async (request, reply) => {
    await readNotice(requestContext(app, request), request.params.noticeUuid);
    return reply.code(204).send(null);
  });
  registerEndpoint(app, NOTICE_ENDPOINTS.readAll, async (request, reply) => {
    await readAllNotices(requestContext(app, request));
    return reply.code(204).send(null);
  });
}
