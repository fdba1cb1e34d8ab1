// A room's retention policy (issue 31 §2; SPEC §3 "retention deletion period", §4 "files beyond the
// new period are deleted at end of day", §5; server/README "Room retention"). Plain and Secure rooms
// alike: the end-of-day job moves rows to the room's trash and never needs a name in clear.
import {
  RETENTION_ACTIVITY_DETAIL,
  RETENTION_BELOW_MINIMUM,
  RETENTION_CONFIRMATIONS,
  RETENTION_CONFIRMATIONS_MESSAGE,
  RETENTION_PREVIEW_LIMIT,
  ROOM_RETENTION_MIN_DAYS_KEY,
  type RoomRetention,
  type RoomRetentionPreview,
  type RoomRetentionUpdate,
} from '@shared/contract/room-retention';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { accessDenied, badRequest } from '../../core/http-error';
import type { RequestContext } from '../../core/request-context';
import type { Database } from '../../db/schema';
import { periodicJob, type JobKind } from '../../jobs/job-queue';
import { recordActivity } from '../kind/activity';
import { effectiveRole, liveRoom, requireMember, type RoomRow } from '../kind/roles';

/**
 * The start of the server's local day of `now`, `offset` days later (calendar days, so a day with
 * a daylight-saving change still ends at midnight). The server's local time zone is the process's
 * (`TZ`); server/README "Room retention".
 */
export function localDayStart(now: number, offset = 0): number {
  const day = new Date(now);
  return new Date(day.getFullYear(), day.getMonth(), day.getDate() + offset).getTime();
}

type RetentionColumns = Pick<RoomRow, 'retention_days' | 'retention_next_days' | 'retention_next_at'>;

/** The period in force at `now`: a waiting change counts from its day on, even before the job wrote it over. */
export function periodInForce(room: RetentionColumns, now: number): number | null {
  const waiting = room.retention_next_at !== null && Number(room.retention_next_at) <= now;
  const days = waiting ? room.retention_next_days : room.retention_days;
  return days === null ? null : Number(days);
}

function viewOf(room: RetentionColumns, now: number, minimumDays: number): RoomRetention {
  const waiting = room.retention_next_at !== null && Number(room.retention_next_at) > now;
  return {
    periodDays: periodInForce(room, now),
    pending: waiting ? { periodDays: room.retention_next_days === null ? null : Number(room.retention_next_days), effectiveFrom: Number(room.retention_next_at) } : null,
    minimumDays,
  };
}

const minimumDaysOf = async (app: FastifyInstance): Promise<number> => Number(await app.settings.get<number>(ROOM_RETENTION_MIN_DAYS_KEY));

/** Changing the policy and its preview: the room's OWNER (a member with another role 403, anyone else 404). */
async function ownedRoom(ctx: RequestContext, roomUuid: string): Promise<RoomRow> {
  const room = await liveRoom(ctx.app.db, roomUuid);
  await requireMember(ctx.app.db, room, ctx.user.id);
  if ((await effectiveRole(ctx.app.db, room, ctx.user.id)) !== 'OWNER') throw accessDenied();
  return room;
}

export async function getRetention(ctx: RequestContext, roomUuid: string): Promise<RoomRetention> {
  const room = await liveRoom(ctx.app.db, roomUuid);
  await requireMember(ctx.app.db, room, ctx.user.id);
  return viewOf(room, Date.now(), await minimumDaysOf(ctx.app));
}

/** A change takes over at the end of today (SPEC §4): until then the room shows it as waiting. */
export async function setRetention(ctx: RequestContext, roomUuid: string, body: RoomRetentionUpdate): Promise<RoomRetention> {
  const { app } = ctx;
  const room = await ownedRoom(ctx, roomUuid);
  const minimumDays = await minimumDaysOf(app);
  if (body.periodDays !== null && body.periodDays < minimumDays) {
    throw badRequest(`The deletion period must be at least ${minimumDays} days`, { field: 'periodDays', reason: RETENTION_BELOW_MINIMUM, minimum: minimumDays });
  }
  if (!RETENTION_CONFIRMATIONS.every((box) => body.confirmations.includes(box))) throw badRequest(RETENTION_CONFIRMATIONS_MESSAGE, { field: 'confirmations' });
  const now = Date.now();
  const inForce = periodInForce(room, now);
  // Back to the period in force: nothing waits any more.
  const next = body.periodDays === inForce ? { retention_next_days: null, retention_next_at: null } : { retention_next_days: body.periodDays, retention_next_at: localDayStart(now, 1) };
  const values = { retention_days: inForce, ...next };
  await app.db.updateTable('data_rooms').set(values).where('id', '=', room.id).execute();
  return viewOf(values, now, minimumDays);
}

interface Candidate {
  id: number;
  uuid: string;
  name: string;
  folder_id: number | null;
  updated_at: number;
}

/**
 * The room's live, complete files last changed before `cutoff`, oldest first. Files inside a
 * trashed folder are in the trash already (they come back with it) and are left out.
 */
async function filesOlderThan(db: Kysely<Database>, room: RoomRow, cutoff: number): Promise<Candidate[]> {
  const folders = await db.selectFrom('room_folders').select(['id', 'parent_id', 'deleted_at']).where('room_id', '=', room.id).execute();
  const byId = new Map(folders.map((f) => [f.id, f]));
  const trashed = (folderId: number | null): boolean => {
    for (let at = folderId === null ? undefined : byId.get(folderId); at; at = at.parent_id === null ? undefined : byId.get(at.parent_id)) {
      if (at.deleted_at !== null) return true;
    }
    return false;
  };
  const rows = await db
    .selectFrom('room_files')
    .select(['id', 'uuid', 'name', 'folder_id', 'updated_at'])
    .where('room_id', '=', room.id)
    .where('deleted_at', 'is', null)
    .where('state', '=', 'complete')
    .where('updated_at', '<', cutoff)
    .orderBy('updated_at')
    .orderBy('id')
    .execute();
  return rows.filter((r) => !trashed(r.folder_id)).map((r) => ({ ...r, updated_at: Number(r.updated_at) }));
}

/** What `periodDays` would move to the trash at the next end of day (the editor shows it before saving). */
export async function previewRetention(ctx: RequestContext, roomUuid: string, periodDays: number): Promise<RoomRetentionPreview> {
  const room = await ownedRoom(ctx, roomUuid);
  const files = await filesOlderThan(ctx.app.db, room, localDayStart(Date.now(), 1 - periodDays));
  return { count: files.length, files: files.slice(0, RETENTION_PREVIEW_LIMIT).map((f) => ({ uuid: f.uuid, name: f.name, modifiedAt: f.updated_at })) };
}

/** Who the activity log names for a move by the retention job (no user did it). */
const RETENTION_ACTOR = { id: null, email: '' };

/**
 * The end-of-day run: waiting changes whose day has come take over, then each room with a period
 * moves its files last changed before (start of today − period) to its trash, each with a `delete`
 * activity (detail `retention`). Between two midnights the cutoff stays put, so an hourly job moves
 * files only in its first run of a day. Idempotent: a file moves only while it is live (conditional
 * update), so a second run or server finds nothing left to move.
 */
export async function runRoomRetention(app: FastifyInstance, now = Date.now()): Promise<{ changed: number; moved: number }> {
  const { db } = app;
  const changed = await db
    .updateTable('data_rooms')
    .set((eb) => ({ retention_days: eb.ref('retention_next_days'), retention_next_days: null, retention_next_at: null }))
    .where('retention_next_at', '<=', now)
    .executeTakeFirst();
  const rooms = await db.selectFrom('data_rooms').selectAll().where('deleted_at', 'is', null).where('retention_days', 'is not', null).execute();
  let moved = 0;
  for (const room of rooms) {
    const cutoff = localDayStart(now, -Number(room.retention_days));
    for (const file of await filesOlderThan(db, room, cutoff)) {
      const done = await db.transaction().execute(async (trx) => {
        const result = await trx
          .updateTable('room_files')
          .set({ deleted_at: now, deleted_by: null })
          .where('id', '=', file.id)
          .where('deleted_at', 'is', null)
          .where('updated_at', '<', cutoff)
          .executeTakeFirst();
        if (Number(result.numUpdatedRows) !== 1) return false;
        await recordActivity(trx, 'delete', RETENTION_ACTOR, { room, folderId: file.folder_id, fileId: file.id, uuid: file.uuid, name: file.name }, RETENTION_ACTIVITY_DETAIL);
        return true;
      });
      if (done) moved++;
    }
  }
  if (moved > 0) app.log.info({ moved }, 'room retention moved files to the trash');
  return { changed: Number(changed.numUpdatedRows), moved };
}

/** Its kind on the database job queue. */
export const ROOM_RETENTION_JOB = 'room-retention';
/** Hourly: the first run after midnight does the day's moves (SPEC §9 "retention deletion runs at end of day"). */
const ROOM_RETENTION_INTERVAL_MS = 60 * 60_000;

export const roomRetentionJobs = (app: FastifyInstance): Record<string, JobKind<never>> => ({
  [ROOM_RETENTION_JOB]: periodicJob(ROOM_RETENTION_INTERVAL_MS, async () => void (await runRoomRetention(app))),
});
