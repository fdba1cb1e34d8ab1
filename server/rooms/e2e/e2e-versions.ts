// E2E room files: the earlier versions with their sealed file key and signed metadata (issue 15;
// shared/crypto/README.md "7. Data rooms"). Roles as the plain versions call (versions.ts): OWNER
// and EDITOR (the `edit` right stands for "view and download file versions", SPEC §6). The bytes
// of a version come from the plain version download (ciphertext, same roles).
import type { E2eFileVersionList } from '@shared/contract/rooms-e2e-versions';
import type { RequestContext } from '../../core/request-context';
import { requireEncrypted } from './e2e-rooms';
import { personName } from '../kind/activity';
import { liveFile } from '../kind/file-rows';
import { liveRoom, requireRole } from '../kind/roles';

/** GET …/e2e/files/{fileUuid}/versions: newest first, without the current content. */
export async function listE2eVersions(ctx: RequestContext, roomUuid: string, fileUuid: string): Promise<E2eFileVersionList> {
  const { app, user } = ctx;
  const room = await liveRoom(app.db, roomUuid);
  const { file, folder } = await liveFile(app.db, room, fileUuid);
  await requireRole(app.db, room, user.id, 'edit', folder);
  requireEncrypted(room);
  const rows = await app.db
    .selectFrom('room_file_versions')
    .innerJoin('room_e2e_versions', 'room_e2e_versions.version_id', 'room_file_versions.id')
    .leftJoin('users', 'users.id', 'room_file_versions.uploaded_by')
    .leftJoin('users as signer', 'signer.id', 'room_e2e_versions.signed_by')
    .select([
      'room_file_versions.uuid',
      'room_e2e_versions.version',
      'room_file_versions.created_at',
      'room_file_versions.replaced_at',
      'room_file_versions.size',
      'room_e2e_versions.plaintext_size',
      'room_e2e_versions.wrapped_file_key',
      'room_e2e_versions.metadata',
      'users.uuid as uploader',
      'users.first_name',
      'users.last_name',
      'signer.uuid as signer',
    ])
    .where('room_file_versions.file_id', '=', file.id)
    .orderBy('room_e2e_versions.version', 'desc')
    .execute();
  return {
    versions: rows.map((r) => ({
      uuid: r.uuid,
      version: r.version,
      createdAt: Number(r.created_at),
      replacedAt: Number(r.replaced_at),
      size: Number(r.size),
      plaintextSize: Number(r.plaintext_size),
      wrappedFileKey: r.wrapped_file_key,
      metadata: r.metadata,
      uploaderUuid: r.uploader ?? null,
      // Issue 32: a name to show beside the signed address (as the plain versions list answers it).
      uploadedByName: r.uploader ? personName(r) : null,
      // Null `signed_by`: the uploader signed (as for the current file).
      signerUuid: r.signer ?? r.uploader ?? null,
    })),
  };
}
