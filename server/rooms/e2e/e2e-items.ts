// E2E rooms: folders and files with sealed names, files with their sealed file key and signed
// metadata (shared/crypto/README.md "7. Data rooms"). The bytes then go through the plain parts
// and commit calls (file-uploads.ts) as ciphertext in the stream format.
import { partCountOf } from '@shared/contract/deliveries';
import type { RoomFolder } from '@shared/contract/rooms';
import type { RoomUploadFile } from '@shared/contract/room-files';
import type { CommitE2eFileBody, CreateE2eFileBody, E2eFileKeysList, E2eRenameBody } from '@shared/contract/rooms-e2e';
import { badRequest, HttpError } from '../../core/http-error';
import type { RequestContext } from '../../core/request-context';
import { checkSpace } from '../../uploads/space';
import { commitFile } from '../plain/file-uploads';
import { personName, recordActivity } from '../kind/activity';
import { renameE2eFile, replacedE2eFile } from './e2e-file-ops';
import { requireEncrypted, seenE2eFolder } from './e2e-rooms';
import { fileBlobPrefix, toUploadFile } from '../kind/file-rows';
import { liveFolder, liveRoom, requireMember, requireRole } from '../kind/roles';
import { toFolder } from '../plain/rooms';
import { isSecureRoom } from '../kind/room-kind';
import { secureCommitHooks } from './secure-commit';

const uuidTaken = () => new HttpError(409, 'ConflictException', 'This item id is taken; draw another', { reason: 'uuidTaken' });

async function uuidFree(ctx: RequestContext, uuid: string): Promise<void> {
  const { db } = ctx.app;
  const folder = await db.selectFrom('room_folders').select('id').where('uuid', '=', uuid).executeTakeFirst();
  const file = await db.selectFrom('room_files').select('id').where('uuid', '=', uuid).executeTakeFirst();
  if (folder || file) throw uuidTaken();
}

/** A folder with a sealed name (upload right where it goes). Names cannot be compared here: the browser checks siblings. */
export async function createE2eFolder(ctx: RequestContext, roomUuid: string, input: { uuid: string; name: string; parentUuid?: string | null | undefined }): Promise<RoomFolder> {
  const { app, user } = ctx;
  const room = await liveRoom(app.db, roomUuid);
  const parent = input.parentUuid ? await liveFolder(app.db, room, input.parentUuid) : undefined;
  await requireRole(app.db, room, user.id, 'upload', parent);
  requireEncrypted(room);
  await uuidFree(ctx, input.uuid);
  const now = Date.now();
  const row = await app.db
    .insertInto('room_folders')
    .values({ uuid: input.uuid, room_id: room.id, parent_id: parent?.id ?? null, name: input.name, created_by: user.id, created_at: now, updated_at: now, deleted_at: null, deleted_by: null })
    .returningAll()
    .executeTakeFirstOrThrow();
  const role = await requireRole(app.db, room, user.id, 'see', row);
  return toFolder(row, room, parent?.uuid ?? null, role, user.email, personName(user));
}

/** Announces a ciphertext file (upload right: a VIEWER or PREVIEWER gets 403 as in plain rooms). */
export async function createE2eFile(ctx: RequestContext, roomUuid: string, input: CreateE2eFileBody): Promise<RoomUploadFile> {
  const { app, user } = ctx;
  const room = await liveRoom(app.db, roomUuid);
  const folder = input.folderUuid ? await liveFolder(app.db, room, input.folderUuid) : undefined;
  const role = await requireRole(app.db, room, user.id, 'upload', folder);
  requireEncrypted(room);
  await uuidFree(ctx, input.uuid);
  const replaced = input.replaceUuid ? await replacedE2eFile(ctx, room, folder?.id ?? null, input.replaceUuid) : undefined;
  await checkSpace(app, input.size, { roomId: room.id });
  const partSize = app.config.uploadPartSize;
  const now = Date.now();
  const row = await app.db.transaction().execute(async (trx) => {
    const file = await trx
      .insertInto('room_files')
      .values({
        uuid: input.uuid,
        room_id: room.id,
        folder_id: folder?.id ?? null,
        name: input.name,
        size: input.size,
        // The real type is in the signed metadata; the server serves ciphertext.
        mime_type: 'application/octet-stream',
        part_size: partSize,
        part_count: partCountOf(input.size, partSize),
        sha256: null,
        blob_prefix: fileBlobPrefix(room.uuid, input.uuid),
        state: 'uploading',
        uploaded_by: user.id,
        created_at: now,
        updated_at: now,
        deleted_at: null,
        deleted_by: null,
        replaces_id: replaced?.fileId ?? null,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await trx
      .insertInto('room_e2e_files')
      // Without metadata now, the E2E commit brings it (it signs the plaintext hash of the single read).
      .values({ file_id: file.id, version: replaced?.nextVersion ?? 1, plaintext_size: input.plaintextSize, wrapped_file_key: input.wrappedFileKey, metadata: input.metadata ?? '', signed_by: null })
      .execute();
    return file;
  });
  return toUploadFile(row, room, folder?.uuid ?? null, role, user.email, personName(user));
}

/** The sealed extras of the complete files of the top level or a folder (any role there). */
export async function e2eFileKeys(ctx: RequestContext, roomUuid: string, folderUuid: string | undefined, uuids?: string[]): Promise<E2eFileKeysList> {
  const { room, folder } = await seenE2eFolder(ctx, roomUuid, folderUuid);
  let query = ctx.app.db
    .selectFrom('room_files')
    .innerJoin('room_e2e_files', 'room_e2e_files.file_id', 'room_files.id')
    .leftJoin('users', 'users.id', 'room_files.uploaded_by')
    .leftJoin('users as signer', 'signer.id', 'room_e2e_files.signed_by')
    .select(['room_files.uuid', 'room_e2e_files.version', 'room_e2e_files.plaintext_size', 'room_e2e_files.wrapped_file_key', 'room_e2e_files.metadata', 'users.uuid as uploader', 'signer.uuid as signer'])
    .where('room_files.room_id', '=', room.id)
    .where('room_files.deleted_at', 'is', null)
    .where('room_files.state', '=', 'complete');
  query = folder ? query.where('room_files.folder_id', '=', folder.id) : query.where('room_files.folder_id', 'is', null);
  if (uuids) query = query.where('room_files.uuid', 'in', uuids);
  const rows = await query.orderBy('room_files.id').execute();
  return {
    files: rows.map((r) => ({
      uuid: r.uuid,
      version: r.version,
      plaintextSize: Number(r.plaintext_size),
      wrappedFileKey: r.wrapped_file_key,
      metadata: r.metadata,
      uploaderUuid: r.uploader ?? null,
      signerUuid: r.signer ?? r.uploader ?? null,
    })),
  };
}

/**
 * A new sealed name for the room (OWNER), a folder or a file (edit right). A file's name is also in
 * its signed metadata: the renamer sends it re-signed with the new name (e2e-file-ops.ts).
 */
export async function renameE2eItem(ctx: RequestContext, roomUuid: string, itemUuid: string, body: E2eRenameBody): Promise<void> {
  const { app, user } = ctx;
  const { name } = body;
  const room = await liveRoom(app.db, roomUuid);
  const now = Date.now();
  if (itemUuid === room.uuid) {
    if (body.labelChanges) throw badRequest('Only a file of a Secure room has a signed classification and status', { field: 'labelChanges' });
    await requireRole(app.db, room, user.id, 'manageAccess');
    requireEncrypted(room);
    await app.db.updateTable('data_rooms').set({ name, updated_at: now }).where('id', '=', room.id).execute();
    await recordActivity(app.db, 'edit', user, { room, folderId: null, name });
    return;
  }
  const folder = await liveFolder(app.db, room, itemUuid).catch(() => undefined);
  if (!folder) return renameE2eFile(ctx, room, itemUuid, body);
  // A folder's classification and status are a signed record of their own (PUT …/e2e/folders/{folder}/labels).
  if (body.labelChanges) throw badRequest('A folder’s classification and status are set through its labels call', { field: 'labelChanges' });
  await requireRole(app.db, room, user.id, 'edit', folder);
  requireEncrypted(room);
  await app.db.updateTable('room_folders').set({ name, updated_at: now }).where('id', '=', folder.id).execute();
  await recordActivity(app.db, 'edit', user, { room, folderId: folder.id, uuid: folder.uuid, name });
}

/**
 * The E2E commit: the caller's own upload gets its signed metadata (sealed; the reader verifies it),
 * then the plain commit runs. A repeated call after the commit answers the committed file.
 */
export async function commitE2eFile(ctx: RequestContext, roomUuid: string, fileUuid: string, body: CommitE2eFileBody, ifMatch?: string): Promise<RoomUploadFile> {
  const { app, user } = ctx;
  const room = await liveRoom(app.db, roomUuid);
  // A non-member learns nothing of a plain room, not even that it is one: 404 before the kind.
  if (!isSecureRoom(room)) await requireMember(app.db, room, user.id);
  requireEncrypted(room);
  const upload = await app.db
    .selectFrom('room_files')
    .select('id')
    .where('room_id', '=', room.id)
    .where('uuid', '=', fileUuid)
    .where('state', '=', 'uploading')
    .where('uploaded_by', '=', user.id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (upload) await app.db.updateTable('room_e2e_files').set({ metadata: body.metadata }).where('file_id', '=', upload.id).execute();
  return commitFile(ctx, roomUuid, fileUuid, secureCommitHooks, ifMatch);
}
