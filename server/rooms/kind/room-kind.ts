// A room's kind — plain or Secure (end-to-end encrypted) — read in this one module (issue 31 §0):
// every other rooms file asks here instead of reading `data_rooms.encrypted`, so the flag has one
// reading and each refusal one status (409 ConflictException, the reasons in the contract's
// ROOM_KIND_ERROR_REASONS). tests/lint/server-floor-plan.test.ts keeps the flag out of the other files.
import type { RoomKindErrorReason } from '@shared/contract/rooms';
import { sql, type RawBuilder } from 'kysely';
import { HttpError } from '../../core/http-error';

export type RoomKind = 'plain' | 'secure';

/** What carries the flag: a room row, or any row that selected it (`roomKindColumn`). */
export interface RoomKindFlag {
  encrypted: number | string | bigint;
}

/** The stored flag (0/1; PostgreSQL may hand an integer back as a string in raw selections). */
export const roomKindOf = (room: RoomKindFlag): RoomKind => (Number(room.encrypted) === 1 ? 'secure' : 'plain');
export const isSecureRoom = (room: RoomKindFlag): boolean => roomKindOf(room) === 'secure';

/** The flag's value to store for a new room of that kind. */
export const roomKindFlag = (kind: RoomKind): number => (kind === 'secure' ? 1 : 0);

/** The flag's column of a `data_rooms` row under its alias, for a select list. */
export const roomKindColumn = <A extends string>(alias: A): `${A}.encrypted` => `${alias}.encrypted`;

/** A where condition: the `data_rooms` row under that alias is of that kind. */
export const roomIsOfKind = (alias: string, kind: RoomKind): RawBuilder<boolean> => sql<boolean>`${sql.ref(`${alias}.encrypted`)} = ${roomKindFlag(kind)}`;

const REFUSAL: Record<RoomKind, { reason: RoomKindErrorReason; message: string }> = {
  plain: { reason: 'encryptedRoom', message: 'This is a Secure room (end-to-end encrypted): open it under Secure rooms' },
  secure: { reason: 'notEncrypted', message: 'This data room is not end-to-end encrypted' },
};

/** The refusal of a call that needs a room of another kind (409, one reason per kind). */
export function roomKindRefusal(needed: RoomKind, message?: string): HttpError {
  const { reason, message: standard } = REFUSAL[needed];
  return new HttpError(409, 'ConflictException', message ?? standard, { reason });
}

/**
 * The one guard: 409 `encryptedRoom` when a plain-room call meets a Secure room, 409 `notEncrypted`
 * when a Secure-room call meets a plain one. `message` says why this call in particular cannot serve
 * the other kind (the reason and the status stay the same).
 */
export function requireRoomKind(room: RoomKindFlag, needed: RoomKind, message?: string): void {
  if (roomKindOf(room) !== needed) throw roomKindRefusal(needed, message);
}
