// Uploading a file into a plain room: announce (name, size) → parts (resumable, server/uploads)
// → commit. Until the commit the file is seen by its uploader's part calls only.
import { createHash, randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { isValidMimeType, partCountOf, type Part } from '@shared/contract/deliveries';
import type { CreateRoomFileBody, RoomFileParts, RoomUploadFile } from '@shared/contract/room-files';
import { badRequest, conflict, notFound } from '../../core/http-error';
import type { RequestContext } from '../../core/request-context';
import { partsStream } from '../../uploads/bytes';
import { addStored } from '../../reports/storage-totals';
import { checkComplete, checkPartRequest, writePart } from '../../uploads/parts';
import { checkSpace } from '../../uploads/space';
import { recordActivity } from '../kind/activity';
import { fileBlobPrefix, filePartKey, layoutOf, liveFile, toUploadFile, type FileRow } from '../kind/file-rows';
import { checkNameFree, validName, withRoomNameLock } from '../kind/names';
import { detectStoredType, refuseBlockedContent } from '../../uploads/content-type';
import { blockPolicy, checkFileType, initialScanState, queueRoomScan } from './scan';
import { committedReplacement, promoteUpload, requireContentMatch, sameNamedFile, versionConflict, type SecureCommitHooks } from './versions';
import { liveFolder, liveRoom, requireRole, type FolderRow, type RoomRow } from '../kind/roles';
import { isSecureRoom, requireRoomKind } from '../kind/room-kind';

export async function createFile(ctx: RequestContext, roomUuid: string, input: CreateRoomFileBody): Promise<RoomUploadFile> {
  const { app, user } = ctx;
  const room = await liveRoom(app.db, roomUuid);
  const folder = input.folderUuid ? await liveFolder(app.db, room, input.folderUuid) : undefined;
  const role = await requireRole(app.db, room, user.id, 'upload', folder);
  requireRoomKind(room, 'plain');
  const row = await announceUpload(app, room, folder, input, { uploadedBy: user.id, dropLinkId: null });
  return toUploadFile(row, room, folder?.uuid ?? null, role, user.email);
}

/**
 * An announced upload checked (name, size, file type, same name, quota) and claimed as an
 * `uploading` row: a member's (`uploadedBy`) or a drop link's (`dropLinkId`, sharing/drop-links.ts).
 */
export async function announceUpload(
  app: FastifyInstance,
  room: RoomRow,
  folder: FolderRow | undefined,
  input: Pick<CreateRoomFileBody, 'name' | 'size' | 'mimeType' | 'replace'>,
  by: { uploadedBy: number | null; dropLinkId: number | null },
): Promise<FileRow> {
  let name = validName(input.name);
  if (input.size === 0) throw badRequest('Empty files cannot be uploaded', { field: 'size', reason: 'zeroByteFile' });
  const mimeType = input.mimeType?.trim().toLowerCase() ?? '';
  await checkFileType(app, { name, mimeType });
  // A taken file name: the next version with `replace` (versions.ts), else the version conflict.
  const existing = await sameNamedFile(app.db, room.id, folder?.id ?? null, name);
  if (existing && !input.replace) throw versionConflict(existing);
  if (existing) name = existing.name;
  else await checkNameFree(app.db, room.id, folder?.id ?? null, name);
  await checkSpace(app, input.size, { roomId: room.id });
  const partSize = app.config.uploadPartSize;
  const uuid = randomUUID();
  const now = Date.now();
  return withRoomNameLock(app.db, room.id, async (trx) => {
    // Again under the lock: an announce of the same name may have taken it since the check above.
    if (!existing) await checkNameFree(trx, room.id, folder?.id ?? null, name);
    return trx
      .insertInto('room_files')
      .values({
        uuid,
        room_id: room.id,
        folder_id: folder?.id ?? null,
        name,
        size: input.size,
        mime_type: mimeType && isValidMimeType(mimeType) ? mimeType : 'application/octet-stream',
        part_size: partSize,
        part_count: partCountOf(input.size, partSize),
        sha256: null,
        blob_prefix: fileBlobPrefix(room.uuid, uuid),
        state: 'uploading',
        uploaded_by: by.uploadedBy,
        drop_link_id: by.dropLinkId,
        created_at: now,
        updated_at: now,
        deleted_at: null,
        deleted_by: null,
        scan_detail: null,
        replaces_id: existing?.id ?? null,
        last_upload_uuid: null,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  });
}

/** The caller's own file of the room (any state), with the upload right still held where it lies. */
async function ownUpload(ctx: RequestContext, roomUuid: string, fileUuid: string) {
  const { app, user } = ctx;
  const room = await liveRoom(app.db, roomUuid);
  const found = await liveFile(app.db, room, fileUuid, { uploading: true });
  if (found.file.uploaded_by !== user.id) {
    // Somebody else's upload in progress does not exist for the caller.
    if (found.file.state !== 'complete') throw notFound('File not found');
    await requireRole(app.db, room, user.id, 'upload', found.folder);
    throw conflict('The file is complete; its parts cannot change');
  }
  const role = await requireRole(app.db, room, user.id, 'upload', found.folder);
  return { room, role, ...found };
}

export async function listFileParts(ctx: RequestContext, roomUuid: string, fileUuid: string): Promise<RoomFileParts> {
  const { file } = await ownUpload(ctx, roomUuid, fileUuid);
  const parts = await ctx.app.db.selectFrom('room_file_parts').select(['part_index', 'size', 'sha256']).where('file_id', '=', file.id).orderBy('part_index').execute();
  return {
    fileUuid: file.uuid,
    state: file.state === 'complete' ? 'complete' : 'uploading',
    partSize: file.part_size,
    partCount: file.part_count,
    parts: parts.map((p) => ({ index: p.part_index, size: p.size, sha256: p.sha256 })),
  };
}

/** Stores one part (idempotent: the same index and hash again is a no-op, the body unread). */
export async function putFilePart(
  ctx: RequestContext,
  input: { roomUuid: string; fileUuid: string; index: number; sha256: string | undefined; contentLength: number | undefined; body: Readable },
): Promise<Part> {
  const { file } = await ownUpload(ctx, input.roomUuid, input.fileUuid);
  return storeUploadPart(ctx.app, file, input);
}

/** One part of an `uploading` file stored (idempotent: the same index and hash again is a no-op, the body unread). */
export async function storeUploadPart(
  app: FastifyInstance,
  file: FileRow,
  input: { index: number; sha256: string | undefined; contentLength: number | undefined; body: Readable },
): Promise<Part> {
  if (file.state !== 'uploading') throw conflict('The file is complete; its parts cannot change');
  const { sha256, size } = checkPartRequest(layoutOf(file), input.index, input.sha256);
  const stored = await app.db
    .selectFrom('room_file_parts')
    .select(['size', 'sha256'])
    .where('file_id', '=', file.id)
    .where('part_index', '=', input.index)
    .executeTakeFirst();
  if (stored && stored.sha256 === sha256 && stored.size === size) return { index: input.index, size, sha256 };
  await writePart(app.blobs, filePartKey(file, input.index), { index: input.index, sha256, size, contentLength: input.contentLength, body: input.body });
  const now = Date.now();
  await app.db
    .insertInto('room_file_parts')
    .values({ file_id: file.id, part_index: input.index, size, sha256, created_at: now })
    .onConflict((oc) => oc.columns(['file_id', 'part_index']).doUpdateSet({ size, sha256, created_at: now }))
    .execute();
  return { index: input.index, size, sha256 };
}

/**
 * Completes the upload: every part in, the whole file hashed, listed from now on (activity `upload`).
 * `ifMatch` (an editor's save, room-preview.ts): the replaced file must still hold that content, else 412.
 */
export async function commitFile(ctx: RequestContext, roomUuid: string, fileUuid: string, secureHooks: SecureCommitHooks, ifMatch?: string): Promise<RoomUploadFile> {
  const { app, user } = ctx;
  const replaced = await committedReplacement(ctx, roomUuid, fileUuid);
  if (replaced) return replaced;
  const { room, role, file, folder } = await ownUpload(ctx, roomUuid, fileUuid);
  if (file.state === 'complete') return toUploadFile(file, room, folder?.uuid ?? null, role, user.email);
  const row = await finishUpload(app, { room, folder, file }, user, isSecureRoom(room) ? secureHooks : undefined, ifMatch);
  return toUploadFile(row, room, folder?.uuid ?? null, role, user.email);
}

/**
 * Every part in, the whole file hashed and checked, committed with the storage total, the scan job
 * and a new version's swap; activity `upload` (or `new_version`) by `actor`. Answers the stored row
 * (a parallel commit's too).
 */
export async function finishUpload(
  app: FastifyInstance,
  at: { room: RoomRow; folder: FolderRow | undefined; file: FileRow },
  actor: { id: number | null; email: string },
  secure: SecureCommitHooks | undefined,
  ifMatch?: string,
): Promise<FileRow> {
  const { room, folder, file } = at;
  await secure?.requireMetadata(app.db, file.id);
  const parts = await app.db.selectFrom('room_file_parts').select(['part_index', 'size']).where('file_id', '=', file.id).execute();
  const layout = layoutOf(file);
  await checkComplete(app.blobs, layout, parts, (i) => filePartKey(file, i));
  // The blocked types again, now from the bytes (plain rooms; an E2E room's bytes are ciphertext).
  if (!isSecureRoom(room)) refuseBlockedContent(file.name, await detectStoredType(app.blobs, layout, (i) => filePartKey(file, i)), await blockPolicy(app));
  const hash = createHash('sha256');
  for await (const chunk of partsStream(app.blobs, layout, (i) => filePartKey(file, i), 0, layout.size - 1)) hash.update(chunk as Buffer);
  const sha256 = hash.digest('hex');
  const now = Date.now();
  const scanState = initialScanState(app, room);
  // The storage report's running total, the scan job and a new version's swap go with the commit, in one transaction.
  const done = await app.db.transaction().execute(async (trx) => {
    const updated = await trx
      .updateTable('room_files')
      .set({ state: 'complete', sha256, scan_state: scanState, updated_at: now })
      .where('id', '=', file.id)
      .where('state', '=', 'uploading')
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== 1) return undefined;
    if (ifMatch !== undefined) await requireContentMatch(trx, file.replaces_id, ifMatch);
    await addStored(trx, 'dataRooms', 1, layout.size, now);
    const committed = { ...file, state: 'complete', sha256, scan_state: scanState, updated_at: now };
    const replaced = file.replaces_id === null ? undefined : await promoteUpload(trx, committed, now, secure);
    await queueRoomScan(trx, scanState, { fileId: replaced?.id ?? file.id, blobPrefix: file.blob_prefix });
    return replaced ? { row: replaced, kind: 'new_version' as const } : { row: { ...committed, replaces_id: null }, kind: 'upload' as const };
  });
  // Committed meanwhile by a parallel call: answer what is stored now.
  if (!done) return (await liveFile(app.db, room, file.uuid)).file;
  await app.db.deleteFrom('room_file_parts').where('file_id', '=', file.id).execute();
  if (scanState === 'scanning') app.jobs.kick();
  await recordActivity(app.db, done.kind, actor, { room, folderId: folder?.id ?? null, fileId: done.row.id, uuid: done.row.uuid, name: done.row.name });
  return done.row;
}
