// Complete files of a plain room: list, details, download (Range), rename/move within the room,
// delete to the trash. Roles: the file has its folder's role (SPEC §6).
import type { RoomUploadFile } from '@shared/contract/room-files';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { badRequest } from '../../core/http-error';
import type { RequestContext } from '../../core/request-context';
import { sendStoredFile } from '../../uploads/send';
import { movedDetail, recordActivity } from '../kind/activity';
import { filePartKey, layoutOf, liveFile, toUploadFile } from '../kind/file-rows';
import { applyLabels, type LabelInput } from '../kind/labels';
import { checkNameFree, validName } from '../kind/names';
import { refuseUnlessScanned } from './scan';
import { liveFolder, liveRoom, requireRole } from '../kind/roles';
import { emailOf } from './rooms';
import { isSecureRoom, requireRoomKind } from '../kind/room-kind';

export async function fileDetails(ctx: RequestContext, roomUuid: string, fileUuid: string): Promise<RoomUploadFile> {
  const { app, user } = ctx;
  const room = await liveRoom(app.db, roomUuid);
  const { file, folder } = await liveFile(app.db, room, fileUuid);
  const role = await requireRole(app.db, room, user.id, 'see', folder);
  return toUploadFile(file, room, folder?.uuid ?? null, role, await emailOf(ctx, file.uploaded_by));
}

/** The bytes as a download (download right: never a PREVIEWER); a complete GET is logged as `download`. */
export async function downloadFile(ctx: RequestContext, request: FastifyRequest, reply: FastifyReply, roomUuid: string, fileUuid: string): Promise<unknown> {
  const { app, user } = ctx;
  const room = await liveRoom(app.db, roomUuid);
  const { file, folder } = await liveFile(app.db, room, fileUuid);
  await requireRole(app.db, room, user.id, 'download', folder);
  refuseUnlessScanned(file);
  const stored = { name: file.name, mimeType: file.mime_type, layout: layoutOf(file), keyOf: (i: number) => filePartKey(file, i) };
  return sendStoredFile(request, reply, app.blobs, stored, () =>
    recordActivity(app.db, 'download', user, { room, folderId: folder?.id ?? null, fileId: file.id, uuid: file.uuid, name: file.name }),
  );
}

/**
 * Rename and/or move within the room: edit right where the file is, upload right on the target
 * folder; moving into another room is refused (SPEC §2). Logged as `edit` (detail: the old name
 * on a rename, `moved` on a move). Classification and status (plain rooms) in the same call.
 */
export async function updateFile(
  ctx: RequestContext,
  roomUuid: string,
  fileUuid: string,
  input: { name?: string | undefined; folderUuid?: string | null | undefined; roomUuid?: string | undefined } & LabelInput,
): Promise<RoomUploadFile> {
  const { app, user } = ctx;
  const room = await liveRoom(app.db, roomUuid);
  const { file, folder } = await liveFile(app.db, room, fileUuid);
  await requireRole(app.db, room, user.id, 'edit', folder);
  if (input.roomUuid !== undefined && input.roomUuid !== room.uuid) {
    throw badRequest('Moving content into another data room is not supported', { field: 'roomUuid', reason: 'moveToOtherRoom' });
  }
  let target = folder;
  if (input.folderUuid !== undefined) {
    target = input.folderUuid === null ? undefined : await liveFolder(app.db, room, input.folderUuid);
    await requireRole(app.db, room, user.id, 'upload', target);
  }
  if (input.name !== undefined || input.classification !== undefined || input.status !== undefined) requireRoomKind(room, 'plain');
  const name = input.name === undefined ? file.name : validName(input.name);
  const targetId = target?.id ?? null;
  // E2E: sealed names never compare equal; the browser checks the target's decrypted names first.
  if (!isSecureRoom(room)) await checkNameFree(app.db, room.id, targetId, name, { fileId: file.id });
  const now = Date.now();
  await app.db.updateTable('room_files').set({ name, folder_id: targetId, updated_at: now }).where('id', '=', file.id).execute();
  const updated = { ...file, name, folder_id: targetId, updated_at: now };
  const item = { room, folderId: targetId, fileId: file.id, uuid: file.uuid, name };
  if (name !== file.name) await recordActivity(app.db, 'edit', user, item, file.name);
  if (targetId !== file.folder_id) await recordActivity(app.db, 'edit', user, item, movedDetail(room, target));
  Object.assign(updated, await applyLabels(app.db, 'room_files', file, input, user, item));
  const role = await requireRole(app.db, room, user.id, 'see', target);
  return toUploadFile(updated, room, target?.uuid ?? null, role, await emailOf(ctx, file.uploaded_by));
}

/** Moves the file to the trash (delete right: OWNER, EDITOR); the bytes stay until it is purged. */
export async function deleteFile(ctx: RequestContext, roomUuid: string, fileUuid: string): Promise<void> {
  const { app, user } = ctx;
  const room = await liveRoom(app.db, roomUuid);
  const { file, folder } = await liveFile(app.db, room, fileUuid);
  await requireRole(app.db, room, user.id, 'delete', folder);
  await app.db.updateTable('room_files').set({ deleted_at: Date.now(), deleted_by: user.id }).where('id', '=', file.id).execute();
  await recordActivity(app.db, 'delete', user, { room, folderId: folder?.id ?? null, fileId: file.id, uuid: file.uuid, name: file.name });
}
