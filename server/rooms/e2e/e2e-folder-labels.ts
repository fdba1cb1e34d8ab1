// A Secure room folder's classification and status (issue 31 §1; shared/crypto/README.md section 7
// "Folder labels"): the browser seals the values under the room key and signs the sealed string; the
// server stores both with who signed and logs the SPEC §4 types it is told, never the values.
import type { E2eFolderLabelsList, PutE2eFolderLabelsBody } from '@shared/contract/rooms-e2e-folder-labels';
import type { RequestContext } from '../../core/request-context';
import { recordActivity } from '../kind/activity';
import { liveFolder, liveRoom, requireRole } from '../kind/roles';
import { requireSigningKey } from './e2e-file-ops';
import { requireEncrypted, seenE2eFolder } from './e2e-rooms';

/** PUT …/e2e/folders/{folder}/labels (edit right there: OWNER, EDITOR): replaces the folder's record. */
export async function putE2eFolderLabels(ctx: RequestContext, roomUuid: string, folderUuid: string, body: PutE2eFolderLabelsBody): Promise<void> {
  const { app, user } = ctx;
  const room = await liveRoom(app.db, roomUuid);
  const folder = await liveFolder(app.db, room, folderUuid);
  await requireRole(app.db, room, user.id, 'edit', folder);
  requireEncrypted(room);
  await requireSigningKey(ctx);
  const now = Date.now();
  const row = { labels: body.labels, signature: body.signature, signed_by: user.id, updated_at: now };
  // One statement (as deliveries/parts.ts): two first saves at once cannot both insert.
  await app.db
    .insertInto('room_e2e_folder_labels')
    .values({ folder_id: folder.id, ...row })
    .onConflict((oc) => oc.column('folder_id').doUpdateSet(row))
    .execute();
  const item = { room, folderId: folder.id, uuid: folder.uuid, name: folder.name };
  for (const change of body.labelChanges) await recordActivity(app.db, change, user, item);
}

/** GET …/e2e/folder-labels (any role where the folders lie): the records of the live folders directly in the top level or `parentUuid`. */
export async function listE2eFolderLabels(ctx: RequestContext, roomUuid: string, parentUuid: string | undefined): Promise<E2eFolderLabelsList> {
  const { room, folder: parent } = await seenE2eFolder(ctx, roomUuid, parentUuid);
  let query = ctx.app.db
    .selectFrom('room_folders')
    .innerJoin('room_e2e_folder_labels', 'room_e2e_folder_labels.folder_id', 'room_folders.id')
    .leftJoin('users', 'users.id', 'room_e2e_folder_labels.signed_by')
    .select(['room_folders.uuid', 'room_e2e_folder_labels.labels', 'room_e2e_folder_labels.signature', 'users.uuid as signer'])
    .where('room_folders.room_id', '=', room.id)
    .where('room_folders.deleted_at', 'is', null);
  query = parent ? query.where('room_folders.parent_id', '=', parent.id) : query.where('room_folders.parent_id', 'is', null);
  const rows = await query.orderBy('room_folders.id').execute();
  return { folders: rows.map((r) => ({ uuid: r.uuid, labels: r.labels, signature: r.signature, signerUuid: r.signer ?? null })) };
}
