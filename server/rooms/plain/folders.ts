import { randomUUID } from 'node:crypto';
import type { RoomFolder } from '@shared/contract/rooms';
import { badRequest } from '../../core/http-error';
import type { RequestContext } from '../../core/request-context';
import { movedDetail, recordActivity } from '../kind/activity';
import { applyLabels, type LabelInput } from '../kind/labels';
import { checkFolderNameFree, validName } from '../kind/names';
import { ancestorsOf, liveFolder, liveRoom, requireRole, type FolderRow } from '../kind/roles';
import { emailOf, toFolder } from './rooms';
import { isSecureRoom, requireRoomKind } from '../kind/room-kind';

/** A new folder in the room's top level or in `parentUuid` (upload right there: OWNER, EDITOR). */
export async function createFolder(ctx: RequestContext, roomUuid: string, input: { name: string; parentUuid?: string | null | undefined }): Promise<RoomFolder> {
  const { app, user } = ctx;
  const room = await liveRoom(app.db, roomUuid);
  const parent = input.parentUuid ? await liveFolder(app.db, room, input.parentUuid) : undefined;
  await requireRole(app.db, room, user.id, 'upload', parent);
  requireRoomKind(room, 'plain');
  const name = validName(input.name);
  await checkFolderNameFree(app.db, room.id, parent?.id ?? null, name);
  const now = Date.now();
  const row = await app.db
    .insertInto('room_folders')
    .values({ uuid: randomUUID(), room_id: room.id, parent_id: parent?.id ?? null, name, created_by: user.id, created_at: now, updated_at: now, deleted_at: null, deleted_by: null })
    .returningAll()
    .executeTakeFirstOrThrow();
  const role = await requireRole(app.db, room, user.id, 'see', row);
  return toFolder(row, room, parent?.uuid ?? null, role, user.email);
}

/**
 * Rename and/or move within the room: edit right on the folder, upload right on the target
 * parent; a folder cannot go into itself or below itself; moving into another room is refused.
 * Classification and status (plain rooms) in the same call.
 */
export async function updateFolder(
  ctx: RequestContext,
  roomUuid: string,
  folderUuid: string,
  input: { name?: string | undefined; parentUuid?: string | null | undefined; roomUuid?: string | undefined } & LabelInput,
): Promise<RoomFolder> {
  const { app, user } = ctx;
  const room = await liveRoom(app.db, roomUuid);
  const folder = await liveFolder(app.db, room, folderUuid);
  await requireRole(app.db, room, user.id, 'edit', folder);
  if (input.roomUuid !== undefined && input.roomUuid !== room.uuid) {
    throw badRequest('Moving content into another data room is not supported', { field: 'roomUuid', reason: 'moveToOtherRoom' });
  }
  let parentId = folder.parent_id;
  let moveTarget: FolderRow | undefined;
  if (input.parentUuid !== undefined) {
    const target = input.parentUuid === null ? undefined : await liveFolder(app.db, room, input.parentUuid);
    moveTarget = target;
    if (target) {
      if (target.id === folder.id || (await ancestorsOf(app.db, target)).some((f) => f.id === folder.id)) {
        throw badRequest('A folder cannot be moved into itself', { field: 'parentUuid', reason: 'moveIntoItself' });
      }
    }
    await requireRole(app.db, room, user.id, 'upload', target);
    parentId = target?.id ?? null;
  }
  if (input.name !== undefined || input.classification !== undefined || input.status !== undefined) requireRoomKind(room, 'plain');
  const name = input.name === undefined ? folder.name : validName(input.name);
  // E2E: the name is sealed with a fresh IV, so no two compare equal here; the browser checks the
  // target's decrypted names before it moves (server/README "End-to-end encrypted rooms").
  if (!isSecureRoom(room)) await checkFolderNameFree(app.db, room.id, parentId, name, folder.id);
  const now = Date.now();
  await app.db.updateTable('room_folders').set({ name, parent_id: parentId, updated_at: now }).where('id', '=', folder.id).execute();
  const item = { room, folderId: folder.id, uuid: folder.uuid, name };
  if (name !== folder.name) await recordActivity(app.db, 'edit', user, item, folder.name);
  if (parentId !== folder.parent_id) await recordActivity(app.db, 'edit', user, item, movedDetail(room, moveTarget));
  const updated = { ...folder, name, parent_id: parentId, updated_at: now, ...(await applyLabels(app.db, 'room_folders', folder, input, user, item)) };
  const role = await requireRole(app.db, room, user.id, 'see', updated);
  const parent = parentId === null ? null : await app.db.selectFrom('room_folders').select('uuid').where('id', '=', parentId).executeTakeFirst();
  return toFolder(updated, room, parent?.uuid ?? null, role, await emailOf(ctx, folder.created_by));
}

/** Moves the folder and everything below it to the trash (delete right: OWNER, EDITOR). */
export async function deleteFolder(ctx: RequestContext, roomUuid: string, folderUuid: string): Promise<void> {
  const { app, user } = ctx;
  const room = await liveRoom(app.db, roomUuid);
  const folder = await liveFolder(app.db, room, folderUuid);
  await requireRole(app.db, room, user.id, 'delete', folder);
  await app.db.updateTable('room_folders').set({ deleted_at: Date.now(), deleted_by: user.id }).where('id', '=', folder.id).execute();
  await recordActivity(app.db, 'delete', user, { room, folderId: folder.id, uuid: folder.uuid, name: folder.name });
}
