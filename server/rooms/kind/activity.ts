// The room activity log (SPEC §4 activity types): written by every room, folder and file action
// that has a type, read by OWNERs only (SPEC §6), newest first with cursor paging.
import type { RoomActivityEntry, RoomActivityKind, RoomActivityList } from '@shared/contract/room-files';
import { ROOM_ACTIVITY_KINDS } from '@shared/contract/room-files';
import type { Kysely } from 'kysely';
import { badRequest } from '../../core/http-error';
import type { Database } from '../../db/schema';
import type { RequestContext } from '../../core/request-context';
import { liveFile } from './file-rows';
import { folderSubtree, liveFolder, liveRoom, requireRole, type RoomRow } from './roles';
import { isSecureRoom, type RoomKindFlag } from './room-kind';

export interface ActivityItem {
  room: RoomRow;
  /** The file's or folder's uuid; absent: the room itself. */
  uuid?: string;
  /** The folder the entry is about, or the one holding the file; null: the top level (or the room). */
  folderId: number | null;
  fileId?: number | null;
  name: string;
}

/**
 * The detail of a move (issue 32 §1: "Moved to Z"): `moved:` and the target's name (the room's at
 * its top level). E2E rooms keep the bare `moved` — the target's name is sealed, the server has none.
 */
export const movedDetail = (room: { name: string } & RoomKindFlag, target: { name: string } | undefined): string =>
  isSecureRoom(room) ? 'moved' : `moved:${target?.name ?? room.name}`;

/** A person's display name (first and last name) for the lists that show people (issue 32); null: no account or no name, the address stands. */
export const personName = (u: { first_name: string | null; last_name: string | null }): string | null => `${u.first_name ?? ''} ${u.last_name ?? ''}`.trim() || null;

export async function recordActivity(db: Kysely<Database>, kind: RoomActivityKind, actor: { id: number | null; email: string }, item: ActivityItem, detail: string | null = null): Promise<void> {
  await db
    .insertInto('room_activity')
    .values({
      room_id: item.room.id,
      folder_id: item.folderId,
      file_id: item.fileId ?? null,
      kind,
      item_type: item.fileId ? 'file' : item.uuid ? 'folder' : 'room',
      item_uuid: item.uuid ?? item.room.uuid,
      actor_id: actor.id,
      actor: actor.email,
      item_name: item.name,
      detail,
      created_at: Date.now(),
    })
    .execute();
}

const CURSOR_TEXT = /^(\d+)$/;
const MAX_ROW_ID = 2 ** 31 - 1;
const encodeCursor = (id: number) => Buffer.from(String(id), 'latin1').toString('base64url');
function decodeCursor(cursor: string): number {
  const decoded = /^[A-Za-z0-9_-]+$/.test(cursor) ? CURSOR_TEXT.exec(Buffer.from(cursor, 'base64url').toString('latin1')) : null;
  const id = decoded ? Number(decoded[1]) : NaN;
  // Within the id column's range (PostgreSQL serial: int4), else PostgreSQL answers a 500, not a 400.
  if (!(id >= 1 && id <= MAX_ROW_ID)) throw badRequest('The list cursor is not valid', { field: 'cursor' });
  return id;
}

/** The log of the room, of a folder and everything below it, or of one file (activity right there: OWNER). */
export async function listActivity(
  ctx: RequestContext,
  roomUuid: string,
  query: { folderUuid?: string | undefined; fileUuid?: string | undefined; pageSize: number; cursor?: string | undefined },
): Promise<RoomActivityList> {
  const { app, user } = ctx;
  const room = await liveRoom(app.db, roomUuid);
  let base = app.db
    .selectFrom('room_activity')
    .leftJoin('users', 'users.id', 'room_activity.actor_id')
    .select(['users.first_name', 'users.last_name'])
    .select(['room_activity.id', 'room_activity.kind', 'room_activity.actor', 'room_activity.item_type', 'room_activity.item_uuid', 'room_activity.item_name'])
    .select(['room_activity.detail', 'room_activity.created_at'])
    .where('room_activity.room_id', '=', room.id);
  if (query.fileUuid !== undefined) {
    const { file, folder } = await liveFile(app.db, room, query.fileUuid);
    await requireRole(app.db, room, user.id, 'activity', folder);
    base = base.where('room_activity.file_id', '=', file.id);
  } else if (query.folderUuid !== undefined) {
    const folder = await liveFolder(app.db, room, query.folderUuid);
    await requireRole(app.db, room, user.id, 'activity', folder);
    // The folder and every folder below it.
    const ids = await folderSubtree(app.db, room, folder.id);
    base = base.where('room_activity.folder_id', 'in', [...ids]);
  } else {
    await requireRole(app.db, room, user.id, 'activity');
  }
  if (query.cursor !== undefined) base = base.where('room_activity.id', '<', decodeCursor(query.cursor));
  const rows = await base.orderBy('room_activity.id', 'desc').limit(query.pageSize + 1).execute();
  const page = rows.slice(0, query.pageSize);
  const entries = page.map((r): RoomActivityEntry => {
    const type = r.item_type === 'file' || r.item_type === 'folder' ? r.item_type : 'room';
    const item: RoomActivityEntry['item'] = { type, uuid: r.item_uuid, name: r.item_name };
    const kind = (ROOM_ACTIVITY_KINDS as readonly string[]).includes(r.kind) ? (r.kind as RoomActivityKind) : 'edit';
    return { kind, actor: r.actor, actorName: personName(r), item, detail: r.detail, createdAt: Number(r.created_at) };
  });
  const last = page.at(-1);
  return { entries, nextCursor: rows.length > query.pageSize && last ? encodeCursor(last.id) : null };
}
