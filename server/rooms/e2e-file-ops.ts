// E2E room files: rename (sealed name plus metadata re-signed by the renamer) and new versions
// (shared/crypto/README.md "7. Data rooms", server/README "End-to-end encrypted rooms"). The server
// cannot open what the browser sealed; it checks the role, the shapes and that the signer holds a
// signing key, and records who signed so readers verify against that member's pinned key.
import type { E2eRenameBody } from '@shared/contract/rooms-e2e';
import { badRequest, HttpError } from '../core/http-error';
import type { RequestContext } from '../core/request-context';
import { recordActivity } from './activity';
import { requireEncrypted } from './e2e-rooms';
import { liveFile } from './file-rows';
import { requireRole, type RoomRow } from './roles';

/** The caller signs metadata: she needs a live signing key (an account without a SecuPass cannot). */
export async function requireSigningKey(ctx: RequestContext): Promise<void> {
  const keys = await ctx.app.secupass.publicKeysOf(ctx.user.id);
  if (!keys.some((k) => k.usage === 'signing')) {
    throw new HttpError(409, 'ConflictException', 'Activate end-to-end encryption first: the file metadata is signed with your key', { reason: 'noSigningKey' });
  }
}

/** PATCH …/e2e/items/{file}: the new sealed name and the metadata re-signed with it (edit right: OWNER, EDITOR). */
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
  await recordActivity(app.db, 'edit', user, { room, folderId: folder?.id ?? null, fileId: file.id, uuid: file.uuid, name: body.name });
}
