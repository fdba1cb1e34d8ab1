import { roomNameProblem } from '@shared/contract/rooms';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { badRequest, HttpError } from '../core/http-error';

const MESSAGES = {
  empty: 'The name must not be empty',
  tooLong: 'The name is too long',
  invalidCharacters: 'The name contains characters that are not allowed (\\ / : * ? " < > | or control characters)',
  reserved: 'The name is reserved by file systems or ends with a dot or a space',
} as const;

/** A plain name checked per SPEC §5 (trimmed), or 400 `ValidationException` with `field: name` and the reason. */
export function validName(name: string): string {
  const problem = roomNameProblem(name);
  if (problem) throw badRequest(MESSAGES[problem], { field: 'name', reason: problem });
  return name.trim();
}

/** 409 `ConflictException` (SPEC §8 "folder already exists"), `reason: nameExists`, with the kind and name. */
export const nameExists = (kind: 'room' | 'folder', name: string) =>
  new HttpError(409, 'ConflictException', kind === 'folder' ? 'A folder with this name already exists here' : 'You already have a data room with this name', {
    reason: 'nameExists',
    kind,
    name,
  });

/** Throws `nameExists` when a live folder with the name (case-insensitive) sits in the same parent. */
export async function checkFolderNameFree(db: Kysely<Database>, roomId: number, parentId: number | null, name: string, exceptId?: number): Promise<void> {
  let query = db
    .selectFrom('room_folders')
    .select('id')
    .where('room_id', '=', roomId)
    .where('deleted_at', 'is', null)
    .where(sql<boolean>`lower(name) = ${name.toLowerCase()}`);
  query = parentId === null ? query.where('parent_id', 'is', null) : query.where('parent_id', '=', parentId);
  if (exceptId !== undefined) query = query.where('id', '!=', exceptId);
  if (await query.executeTakeFirst()) throw nameExists('folder', name);
}

/** Throws `nameExists` when the user already has a live room (with a role on it) of that name. */
export async function checkRoomNameFree(db: Kysely<Database>, userId: number, name: string, exceptId?: number): Promise<void> {
  let query = db
    .selectFrom('data_rooms')
    .innerJoin('room_access', 'room_access.room_id', 'data_rooms.id')
    .select('data_rooms.id')
    .where('room_access.user_id', '=', userId)
    .where('room_access.folder_id', 'is', null)
    .where('data_rooms.deleted_at', 'is', null)
    .where(sql<boolean>`lower(data_rooms.name) = ${name.toLowerCase()}`);
  if (exceptId !== undefined) query = query.where('data_rooms.id', '!=', exceptId);
  if (await query.executeTakeFirst()) throw nameExists('room', name);
}
