import { INVALID_NAME_MESSAGE, INVALID_NAME_REASON, MAX_NAME_LENGTH, nameKey, typedName } from '@shared/contract/names';
import { sql, type Kysely } from 'kysely';
import { databaseKindOf } from '../../db/database';
import type { Database } from '../../db/schema';
import { badRequest, HttpError } from '../../core/http-error';

/**
 * A typed room/folder/file name checked by the product's one name rule (SPEC §5; spaces around it
 * dropped), returned in NFC — the form it is stored and compared in —, or 400 `ValidationException`
 * `Invalid file name` with `field: name`, `reason: invalidFileName`, `nameProblem` (as deliveries answer).
 */
export function validName(raw: string): string {
  const { name, problem } = typedName(raw);
  if (problem) throw badRequest(INVALID_NAME_MESSAGE, { field: 'name', reason: INVALID_NAME_REASON, nameProblem: problem, name: raw, maxLength: MAX_NAME_LENGTH });
  return name;
}

const EXISTS = {
  room: 'You already have a data room with this name',
  folder: 'A folder with this name already exists here',
  file: 'A file with this name already exists here',
} as const;

/** 409 `ConflictException` (SPEC §8 "folder already exists"), `reason: nameExists`, with the kind and name. */
export const nameExists = (kind: 'room' | 'folder' | 'file', name: string) => new HttpError(409, 'ConflictException', EXISTS[kind], { reason: 'nameExists', kind, name });

/**
 * Throws `nameExists` when a live folder or a file (complete or still uploading) of the name
 * (case-insensitive) sits in the same parent: files and folders share their siblings' names.
 */
export async function checkNameFree(
  db: Kysely<Database>,
  roomId: number,
  parentId: number | null,
  name: string,
  except: { folderId?: number; fileId?: number } = {},
): Promise<void> {
  const lower = nameKey(name);
  let folders = db.selectFrom('room_folders').select('id').where('room_id', '=', roomId).where('deleted_at', 'is', null).where(sql<boolean>`lower(name) = ${lower}`);
  folders = parentId === null ? folders.where('parent_id', 'is', null) : folders.where('parent_id', '=', parentId);
  if (except.folderId !== undefined) folders = folders.where('id', '!=', except.folderId);
  if (await folders.executeTakeFirst()) throw nameExists('folder', name);
  let files = db.selectFrom('room_files').select('id').where('room_id', '=', roomId).where('deleted_at', 'is', null).where(sql<boolean>`lower(name) = ${lower}`);
  files = parentId === null ? files.where('folder_id', 'is', null) : files.where('folder_id', '=', parentId);
  if (except.fileId !== undefined) files = files.where('id', '!=', except.fileId);
  if (await files.executeTakeFirst()) throw nameExists('file', name);
}

/** A folder's name free among its siblings (folders and files). */
export const checkFolderNameFree = (db: Kysely<Database>, roomId: number, parentId: number | null, name: string, exceptId?: number) =>
  checkNameFree(db, roomId, parentId, name, exceptId === undefined ? {} : { folderId: exceptId });

/** Throws `nameExists` when the user already has a live room (with a role on it) of that name. */
export async function checkRoomNameFree(db: Kysely<Database>, userId: number, name: string, exceptId?: number): Promise<void> {
  let query = db
    .selectFrom('data_rooms')
    .innerJoin('room_access', 'room_access.room_id', 'data_rooms.id')
    .select('data_rooms.id')
    .where('room_access.user_id', '=', userId)
    .where('room_access.folder_id', 'is', null)
    .where('data_rooms.deleted_at', 'is', null)
    .where(sql<boolean>`lower(data_rooms.name) = ${nameKey(name)}`);
  if (exceptId !== undefined) query = query.where('data_rooms.id', '!=', exceptId);
  if (await query.executeTakeFirst()) throw nameExists('room', name);
}

/**
 * Runs `claim` (a name check and the insert that takes the name) so that no other claim in the same
 * room runs in between: in a transaction — SQLite runs them one at a time on its single connection —
 * holding the room row's lock on PostgreSQL. Without it, announces of one free name racing each other
 * (two tabs, two people, a "keep both" batch and a colleague) all pass checkNameFree and all insert.
 */
export async function withRoomNameLock<T>(db: Kysely<Database>, roomId: number, claim: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
  return db.transaction().execute(async (trx) => {
    if (databaseKindOf(db as unknown as Kysely<unknown>) === 'postgres') await trx.selectFrom('data_rooms').select('id').where('id', '=', roomId).forUpdate().execute();
    return claim(trx);
  });
}
