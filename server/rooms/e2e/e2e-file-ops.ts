// E2E room files: rename (sealed name plus metadata re-signed by the renamer) and new versions
// (shared/crypto/README.md "7. Data rooms", server/README "End-to-end encrypted rooms"). The server
// cannot open what the browser sealed; it checks the role, the shapes and that the signer holds a
// signing key, and records who signed so readers verify against that member's pinned key.
import type { E2eRenameBody } from '@shared/contract/rooms-e2e';
import type { Kysely } from 'kysely';
import { badRequest, HttpError } from '../../core/http-error';
import type { Database } from '../../db/schema';
import type { RequestContext } from '../../core/request-context';
import { recordActivity } from '../kind/activity';
import { requireEncrypted } from './e2e-rooms';
import { liveFile } from '../kind/file-rows';
import { requireRole, type RoomRow } from '../kind/roles';

/** The caller signs metadata: she needs a live signing key (an account without a SecuPass cannot). */
export async function requireSigningKey(ctx: RequestContext): Promise<void> {
  const keys = await ctx.app.secupass.publicKeysOf(ctx.user.id);
  if (!keys.some((k) => k.usage === 'signing')) {
    throw new HttpError(409, 'ConflictException', 'Activate end-to-end encryption first: the file metadata is signed with your key', { reason: 'noSigningKey' });
  }
}

/** PATCH …/e2e/items/{file}: the new sealed name and the metadata re-signed with it (edit right: OWNER, EDITOR); also a classification or status change. */
export async function renameE2eFile(ctx: RequestContext, room: RoomRow, fileUuid: string, body: E2eRenameBody): Promise<void> {
  const { app, user } = ctx;
  const { file, folder } = await liveFile(app.db, room, fileUuid);
  if (file.state !== 'complete') throw new HttpError(409, 'ConflictException', 'The file is still uploading', { reason: 'uploading' });
  await requireRole(app.db, room, user.id, 'edit', folder);
  requireEncrypted(room);
  if (!body.metadata) throw badRequest('A file’s name is signed: send its metadata re-signed with the new name', { field: 'metadata', reason: 'e2eMetadataRequired' });
  await requireSigningKey(ctx);
  const now = Date.now();
  await app.db.transaction().execute(async (trx) => {
    await trx.updateTable('room_files').set({ name: body.name, updated_at: now }).where('id', '=', file.id).execute();
    // The uploader re-signing her own file stays "the uploader" (null); anyone else is named.
    await trx.updateTable('room_e2e_files').set({ metadata: body.metadata!, signed_by: file.uploaded_by === user.id ? null : user.id }).where('file_id', '=', file.id).execute();
  });
  const item = { room, folderId: folder?.id ?? null, fileId: file.id, uuid: file.uuid, name: body.name };
  // A classification or status change (the browser says which; the values are sealed in the metadata) logs its SPEC §4 types, no detail.
  if (body.labelChanges) for (const change of body.labelChanges) await recordActivity(app.db, change, user, item);
  else await recordActivity(app.db, 'edit', user, item);
}

/**
 * The file a new E2E version replaces: complete, live, in the folder the upload goes to (the browser
 * found it by its decrypted name). Its next version number binds the new file key and metadata.
 */
export async function replacedE2eFile(ctx: RequestContext, room: RoomRow, folderId: number | null, fileUuid: string): Promise<{ fileId: number; nextVersion: number }> {
  const { file } = await liveFile(ctx.app.db, room, fileUuid);
  const e2e = await ctx.app.db.selectFrom('room_e2e_files').select('version').where('file_id', '=', file.id).executeTakeFirst();
  if (file.state !== 'complete' || file.folder_id !== folderId || !e2e) throw badRequest('Only a complete file of the same folder gets a new version', { field: 'replaceUuid', reason: 'notReplaceable' });
  return { fileId: file.id, nextVersion: e2e.version + 1 };
}

/**
 * Inside the commit's promotion (versions.ts `promoteUpload`): the replaced content's sealed extras
 * go with its version row, the upload's become the file's (signed by the uploader of the new version).
 * The upload's key and metadata are bound to the version after the one it replaces: when another
 * new version was committed meanwhile, this one would bind a number that is taken, so the whole
 * commit is refused (409 `versionConflict`; the upload stays, the browser uploads again). The
 * update is also conditional on the version it read: should two commits ever read the same current
 * version (PostgreSQL, READ COMMITTED), the second one's update waits for the first's row lock,
 * then matches no row and is refused too. SQLite serialises the commits.
 */
export async function promoteE2eContent(trx: Kysely<Database>, input: { targetId: number; uploadId: number; versionId: number }): Promise<void> {
  const current = await trx.selectFrom('room_e2e_files').selectAll().where('file_id', '=', input.targetId).executeTakeFirst();
  const upload = await trx.selectFrom('room_e2e_files').selectAll().where('file_id', '=', input.uploadId).executeTakeFirst();
  if (!current || !upload) return;
  if (upload.version !== current.version + 1) throw versionTaken();
  const claimed = await trx
    .updateTable('room_e2e_files')
    .set({ version: upload.version, plaintext_size: upload.plaintext_size, wrapped_file_key: upload.wrapped_file_key, metadata: upload.metadata, signed_by: null })
    .where('file_id', '=', input.targetId)
    .where('version', '=', current.version)
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) !== 1) throw versionTaken();
  await trx
    .insertInto('room_e2e_versions')
    .values({ version_id: input.versionId, version: current.version, plaintext_size: current.plaintext_size, wrapped_file_key: current.wrapped_file_key, metadata: current.metadata, signed_by: current.signed_by })
    .execute();
}

const versionTaken = () =>
  new HttpError(409, 'ConflictException', 'Another new version of this file was saved meanwhile: upload yours again to make it the next version', { reason: 'versionConflict' });
