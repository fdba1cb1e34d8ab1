// File versions (SPEC §1, §3, §6): an upload announced with `replace` for a taken name becomes
// the file's next content at its commit; the earlier content is kept as a version (own bytes,
// purged with the file or 30 days after it was replaced: sweep.ts). OWNERs and EDITORs list and
// download versions (SPEC §6 "view and download file versions"); the role table has no column of
// its own for it, so the `edit` right (exactly OWNER and EDITOR) stands for it.
import { randomUUID } from 'node:crypto';
import type { RoomUploadFile } from '@shared/contract/room-files';
import { nameKey } from '@shared/contract/names';
import type { RoomFileVersion, RoomFileVersionList } from '@shared/contract/room-ops';
import { contentEtag, ifMatchValues, SAVE_CONFLICT_REASON } from '@shared/contract/room-preview';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sql, type Kysely } from 'kysely';
import { HttpError, notFound } from '../../core/http-error';
import type { RequestContext } from '../../core/request-context';
import type { Database } from '../../db/schema';
import { sendStoredFile } from '../../uploads/send';
import { personName, recordActivity } from '../kind/activity';
import { layoutOf, liveFile, scanStateOf, toUploadFile, type FileRow } from '../kind/file-rows';
import { liveRoom, requireRole } from '../kind/roles';
import { refuseUnlessScanned } from './scan';

/**
 * What a commit in a Secure room needs from the E2E side (issue 31 §0: plain code does not import
 * e2e/; e2e/secure-commit.ts passes these in, through the composition in rooms/routes.ts and the E2E
 * commit): the signed metadata is there before the commit, and a new version's sealed file key and
 * metadata move with their content inside the promotion's transaction.
 */
export interface SecureCommitHooks {
  requireMetadata(db: Kysely<Database>, fileId: number): Promise<void>;
  promoteContent(trx: Kysely<Database>, input: { targetId: number; uploadId: number; versionId: number }): Promise<void>;
}

/** Versions are kept this long after a newer content replaced them (SPEC §7). */
export const VERSION_MAX_AGE_MS = 30 * 86_400_000;

/** The complete, live file of that name (case-insensitive) in the folder (null: top level). */
export async function sameNamedFile(db: Kysely<Database>, roomId: number, folderId: number | null, name: string): Promise<FileRow | undefined> {
  let query = db
    .selectFrom('room_files')
    .selectAll()
    .where('room_id', '=', roomId)
    .where('deleted_at', 'is', null)
    .where('state', '=', 'complete')
    .where(sql<boolean>`lower(name) = ${nameKey(name)}`);
  query = folderId === null ? query.where('folder_id', 'is', null) : query.where('folder_id', '=', folderId);
  return query.executeTakeFirst();
}

/** 409 `nameExists` for a file, with its uuid: the web offers replace (as a new version), keep both, cancel. */
export const versionConflict = (file: FileRow) =>
  new HttpError(409, 'ConflictException', 'A file with this name already exists here', { reason: 'nameExists', kind: 'file', name: file.name, fileUuid: file.uuid });

/**
 * Inside the commit transaction of an editor's save (If-Match, room-preview.ts): the replaced file
 * still holds the content the editor loaded, else 412 `saveConflict` with the current ETag. The
 * update of the row with its own value takes its row lock on PostgreSQL (a save racing this one
 * waits here and then sees the new content); SQLite runs one write transaction at a time.
 */
export async function requireContentMatch(trx: Kysely<Database>, replacesId: number | null, ifMatch: string): Promise<void> {
  const wanted = ifMatchValues(ifMatch);
  if (wanted.includes('*') && replacesId !== null) return;
  const held =
    replacesId === null || wanted.length === 0
      ? undefined
      : await trx
          .updateTable('room_files')
          .set({ sha256: sql`sha256` })
          .where('id', '=', replacesId)
          .where('deleted_at', 'is', null)
          .where('state', '=', 'complete')
          .where('sha256', 'in', wanted)
          .executeTakeFirst();
  if (held && Number(held.numUpdatedRows) === 1) return;
  const current = replacesId === null ? undefined : await trx.selectFrom('room_files').select(['sha256', 'deleted_at']).where('id', '=', replacesId).executeTakeFirst();
  throw new HttpError(412, 'ConflictException', 'Someone saved a newer version of this file in the meantime', {
    reason: SAVE_CONFLICT_REASON,
    etag: current?.sha256 && current.deleted_at === null ? contentEtag(current.sha256) : null,
  });
}

/**
 * Inside the commit transaction of an upload that replaces a file: the file's current content
 * becomes a version, the upload's content the file's (the file keeps uuid, name and place), the
 * upload row goes. Undefined when the replaced file is no longer live (the upload then stays a
 * file of its own).
 */
export async function promoteUpload(trx: Kysely<Database>, upload: FileRow, now: number, secure?: SecureCommitHooks): Promise<FileRow | undefined> {
  const target = await trx.selectFrom('room_files').selectAll().where('id', '=', upload.replaces_id!).where('deleted_at', 'is', null).where('state', '=', 'complete').executeTakeFirst();
  if (!target) {
    await trx.updateTable('room_files').set({ replaces_id: null }).where('id', '=', upload.id).execute();
    return undefined;
  }
  const last = await trx.selectFrom('room_file_versions').select((eb) => eb.fn.max('version').as('version')).where('file_id', '=', target.id).executeTakeFirst();
  const version = await trx
    .insertInto('room_file_versions')
    .values({
      uuid: randomUUID(),
      file_id: target.id,
      version: Number(last?.version ?? 0) + 1,
      size: target.size,
      mime_type: target.mime_type,
      part_size: target.part_size,
      part_count: target.part_count,
      sha256: target.sha256,
      blob_prefix: target.blob_prefix,
      scan_state: target.scan_state,
      uploaded_by: target.uploaded_by,
      created_at: target.updated_at,
      replaced_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  // E2E: the sealed file key and signed metadata move with their content (before the upload row goes).
  await secure?.promoteContent(trx, { targetId: target.id, uploadId: upload.id, versionId: version.id });
  const content = {
    size: upload.size,
    mime_type: upload.mime_type,
    part_size: upload.part_size,
    part_count: upload.part_count,
    sha256: upload.sha256,
    blob_prefix: upload.blob_prefix,
    scan_state: upload.scan_state,
    scan_detail: null,
    uploaded_by: upload.uploaded_by,
    last_upload_uuid: upload.uuid,
    updated_at: now,
  };
  await trx.updateTable('room_files').set(content).where('id', '=', target.id).execute();
  await trx.deleteFrom('room_files').where('id', '=', upload.id).execute();
  return { ...target, ...content };
}

/**
 * A repeated commit of a replace upload (its row is gone): the file it became the content of, for
 * its uploader, while that is still the file's content; undefined otherwise.
 */
export async function committedReplacement(ctx: RequestContext, roomUuid: string, uploadUuid: string): Promise<RoomUploadFile | undefined> {
  const { app, user } = ctx;
  const room = await liveRoom(app.db, roomUuid);
  const row = await app.db
    .selectFrom('room_files')
    .select('uuid')
    .where('room_id', '=', room.id)
    .where('last_upload_uuid', '=', uploadUuid)
    .where('uploaded_by', '=', user.id)
    .executeTakeFirst();
  if (!row) return undefined;
  const { file, folder } = await liveFile(app.db, room, row.uuid);
  const role = await requireRole(app.db, room, user.id, 'upload', folder);
  return toUploadFile(file, room, folder?.uuid ?? null, role, user.email);
}

async function versionRoute(ctx: RequestContext, roomUuid: string, fileUuid: string) {
  const { app, user } = ctx;
  const room = await liveRoom(app.db, roomUuid);
  const { file, folder } = await liveFile(app.db, room, fileUuid);
  await requireRole(app.db, room, user.id, 'edit', folder);
  return { room, file, folder };
}

export async function listVersions(ctx: RequestContext, roomUuid: string, fileUuid: string): Promise<RoomFileVersionList> {
  const { file } = await versionRoute(ctx, roomUuid, fileUuid);
  const rows = await ctx.app.db
    .selectFrom('room_file_versions')
    .leftJoin('users', 'users.id', 'room_file_versions.uploaded_by')
    .selectAll('room_file_versions')
    .select(['users.email as uploader', 'users.first_name', 'users.last_name'])
    .where('room_file_versions.file_id', '=', file.id)
    .orderBy('room_file_versions.version', 'desc')
    .execute();
  const uploader = await ctx.app.db.selectFrom('users').select(['email', 'first_name', 'last_name']).where('id', '=', file.uploaded_by ?? -1).executeTakeFirst();
  const current: RoomFileVersion = {
    uuid: file.uuid,
    version: Number(rows[0]?.version ?? 0) + 1,
    size: Number(file.size),
    mimeType: file.mime_type,
    sha256: file.sha256,
    scanState: scanStateOf(file.scan_state),
    uploadedBy: uploader?.email ?? '',
    uploadedByName: uploader ? personName(uploader) : null,
    createdAt: Number(file.updated_at),
    replacedAt: null,
    current: true,
  };
  const earlier = rows.map(
    (r): RoomFileVersion => ({
      uuid: r.uuid,
      version: r.version,
      size: Number(r.size),
      mimeType: r.mime_type,
      sha256: r.sha256,
      scanState: scanStateOf(r.scan_state),
      uploadedBy: r.uploader ?? '',
      uploadedByName: r.uploader ? personName(r) : null,
      createdAt: Number(r.created_at),
      replacedAt: Number(r.replaced_at),
      current: false,
    }),
  );
  return { versions: [current, ...earlier] };
}

/** An earlier version's bytes as a download (Range); a complete GET is logged as `version_download`. */
export async function downloadVersion(ctx: RequestContext, request: FastifyRequest, reply: FastifyReply, roomUuid: string, fileUuid: string, versionUuid: string): Promise<unknown> {
  const { app, user } = ctx;
  const { room, file, folder } = await versionRoute(ctx, roomUuid, fileUuid);
  const version = await app.db.selectFrom('room_file_versions').selectAll().where('uuid', '=', versionUuid).where('file_id', '=', file.id).executeTakeFirst();
  if (!version) throw notFound('Version not found');
  refuseUnlessScanned({ name: file.name, scan_state: version.scan_state });
  const stored = { name: file.name, mimeType: version.mime_type, layout: layoutOf(version), keyOf: (i: number) => `${version.blob_prefix}/${i}` };
  return sendStoredFile(request, reply, app.blobs, stored, () =>
    recordActivity(app.db, 'version_download', user, { room, folderId: folder?.id ?? null, fileId: file.id, uuid: file.uuid, name: file.name }, `version ${version.version}`),
  );
}

/** Every stored content of these files (their current bytes, uploads still running, versions): for a purge. */
export async function storedContents(db: Kysely<Database>, fileIds: number[]): Promise<{ prefixes: string[]; files: number; bytes: number }> {
  if (fileIds.length === 0) return { prefixes: [], files: 0, bytes: 0 };
  const files = await db.selectFrom('room_files').select(['blob_prefix', 'size', 'state']).where((eb) => eb.or([eb('id', 'in', fileIds), eb('replaces_id', 'in', fileIds)])).execute();
  const versions = await db.selectFrom('room_file_versions').select(['blob_prefix', 'size']).where('file_id', 'in', fileIds).execute();
  const counted = [...files.filter((f) => f.state === 'complete'), ...versions];
  return {
    prefixes: [...files, ...versions].map((f) => f.blob_prefix),
    files: counted.length,
    bytes: counted.reduce((sum, f) => sum + Number(f.size), 0),
  };
}
