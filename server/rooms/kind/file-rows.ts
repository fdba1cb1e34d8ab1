// Room files, bottom layer: the row type, lookups, the wire shapes, the part layout and blob keys.
import { ROOM_SCAN_STATES, type RoomFile, type RoomRole, type RoomScanState } from '@shared/contract/rooms';
import type { RoomUploadFile } from '@shared/contract/room-files';
import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../../db/schema';
import { notFound } from '../../core/http-error';
import type { PartLayout } from '../../uploads/parts';
import { classificationOf, fileStatusOf } from './label-values';
import { liveFolder, type FolderRow, type RoomRow } from './roles';
import type { RoomFilesTable } from './tables';

export type FileRow = Selectable<RoomFilesTable>;

export const fileBlobPrefix = (roomUuid: string, fileUuid: string) => `rooms/${roomUuid}/${fileUuid}`;
export const filePartKey = (file: Pick<FileRow, 'blob_prefix'>, index: number) => `${file.blob_prefix}/${index}`;

export const layoutOf = (file: Pick<FileRow, 'size' | 'part_size' | 'part_count'>): PartLayout => ({
  size: Number(file.size),
  partSize: file.part_size,
  partCount: file.part_count,
  leadingBytes: 0,
});

/**
 * A file of the room that is not in the trash, with its folder (undefined: top level), or 404. A
 * file below a deleted folder counts as deleted; one still uploading is found only with `uploading`.
 */
export async function liveFile(
  db: Kysely<Database>,
  room: RoomRow,
  fileUuid: string,
  options: { uploading?: boolean } = {},
): Promise<{ file: FileRow; folder: FolderRow | undefined }> {
  const file = await db
    .selectFrom('room_files')
    .selectAll()
    .where('uuid', '=', fileUuid)
    .where('room_id', '=', room.id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (!file || (file.state !== 'complete' && !options.uploading)) throw notFound('File not found');
  if (file.folder_id === null) return { file, folder: undefined };
  const uuid = await db.selectFrom('room_folders').select('uuid').where('id', '=', file.folder_id).executeTakeFirstOrThrow();
  const folder = await liveFolder(db, room, uuid.uuid).catch(() => {
    throw notFound('File not found');
  });
  return { file, folder };
}

/** `uploadedByName`: the uploader's display name where the list looked it up (issue 32). */
export function toRoomFile(row: FileRow, room: RoomRow, folderUuid: string | null, role: RoomRole, uploadedBy: string, uploadedByName?: string | null): RoomFile {
  return {
    uuid: row.uuid,
    roomUuid: room.uuid,
    folderUuid,
    name: row.name,
    size: Number(row.size),
    mimeType: row.mime_type,
    sha256: row.sha256,
    role,
    uploadedBy,
    ...(uploadedByName === undefined ? {} : { uploadedByName }),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
    scanState: scanStateOf(row.scan_state),
    classification: classificationOf(row.classification),
    status: fileStatusOf(row.file_status),
  };
}

export const scanStateOf = (value: string): RoomScanState => ((ROOM_SCAN_STATES as readonly string[]).includes(value) ? (value as RoomScanState) : 'error');

export const toUploadFile = (row: FileRow, room: RoomRow, folderUuid: string | null, role: RoomRole, uploadedBy: string, uploadedByName?: string | null): RoomUploadFile => ({
  ...toRoomFile(row, room, folderUuid, role, uploadedBy, uploadedByName),
  state: row.state === 'complete' ? 'complete' : 'uploading',
  partSize: row.part_size,
  partCount: row.part_count,
});
