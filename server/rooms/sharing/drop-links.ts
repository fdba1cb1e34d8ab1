// Upload-only "file drop" links into a plain room's folder (issue 32 §2, server/README "Public links
// to room folders"): the visitor announces a file, sends its parts and commits it through the room
// uploads' own steps (plain/file-uploads.ts: name, size, file types, quota, virus scan); the file lands
// in the folder with the activity `upload` by "public link". The visitor learns nothing of the folder.
import type { RoomDropFile, RoomDropFileBody } from '@shared/contract/room-folder-links';
import { ROOM_LINK_ACTOR } from '@shared/contract/room-links';
import type { Part } from '@shared/contract/deliveries';
import type { FastifyInstance } from 'fastify';
import type { Readable } from 'node:stream';
import { HttpError, notFound } from '../../core/http-error';
import type { FileRow } from '../kind/file-rows';
import { checkNameFree, validName } from '../kind/names';
import { announceUpload, finishUpload, storeUploadPart } from '../plain/file-uploads';
import { folderLinkTarget, type FolderLinkTarget } from './folder-links';

const toWire = (row: FileRow): RoomDropFile => ({
  uuid: row.uuid,
  size: Number(row.size),
  partSize: row.part_size,
  partCount: row.part_count,
  state: row.state === 'complete' ? 'complete' : 'uploading',
});

/** `name`, or `name (2)`, `name (3)`… before the extension: the first that no file or folder there has. */
async function freeName(app: FastifyInstance, target: FolderLinkTarget, name: string): Promise<string> {
  const dot = name.lastIndexOf('.');
  const [stem, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
  for (let n = 1; ; n++) {
    const candidate = n === 1 ? name : `${stem} (${n})${ext}`;
    try {
      await checkNameFree(app.db, target.room.id, target.folder.id, candidate);
      return candidate;
    } catch (error) {
      if (!(error instanceof HttpError) || error.statusCode !== 409 || n >= 1000) throw error;
    }
  }
}

export async function announceDropFile(app: FastifyInstance, token: string, password: string | undefined, input: RoomDropFileBody): Promise<RoomDropFile> {
  const target = await folderLinkTarget(app, token, password, 'drop');
  const name = await freeName(app, target, validName(input.name));
  const row = await announceUpload(app, target.room, target.folder, { name, size: input.size, mimeType: input.mimeType, replace: false }, { uploadedBy: null, dropLinkId: target.link.id });
  return toWire(row);
}

/** The link's own upload (any state); another link's or a member's file does not exist for it. */
async function dropUpload(app: FastifyInstance, token: string, fileUuid: string) {
  const target = await folderLinkTarget(app, token, false, 'drop');
  const file = await app.db
    .selectFrom('room_files')
    .selectAll()
    .where('uuid', '=', fileUuid)
    .where('drop_link_id', '=', target.link.id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (!file) throw notFound('File not found');
  return { target, file };
}

export async function putDropPart(
  app: FastifyInstance,
  token: string,
  input: { fileUuid: string; index: number; sha256: string | undefined; contentLength: number | undefined; body: Readable },
): Promise<Part> {
  const { file } = await dropUpload(app, token, input.fileUuid);
  return storeUploadPart(app, file, input);
}

export async function commitDropFile(app: FastifyInstance, token: string, fileUuid: string): Promise<RoomDropFile> {
  const { target, file } = await dropUpload(app, token, fileUuid);
  if (file.state === 'complete') return toWire(file);
  const row = await finishUpload(app, { room: target.room, folder: target.folder, file }, { id: null, email: ROOM_LINK_ACTOR }, undefined);
  await app.db.updateTable('room_folder_links').set((eb) => ({ uploads: eb('uploads', '+', 1) })).where('id', '=', target.link.id).execute();
  return toWire(row);
}
