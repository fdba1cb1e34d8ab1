// Data-room requests, bottom layer: the table type, token hashing, the state and the wire shape.
import { createHash, randomBytes } from 'node:crypto';
import type { RoomRequest, RoomRequestState } from '@shared/contract/room-requests';
import type { Generated, Kysely, Selectable } from 'kysely';
import { HttpError } from '../../core/http-error';
import type { Database } from '../../db/schema';

/** Migration 0040 (server/README "Data-room requests"). */
export interface RoomRequestsTable {
  id: Generated<number>;
  uuid: string;
  room_id: number;
  folder_id: number | null;
  requester_id: number;
  email: string;
  message: string;
  token_hash: string;
  expires_at: number;
  delivery_id: number | null;
  used_at: number | null;
  copied_at: number | null;
  files_copied: Generated<number>;
  /** JSON array of the delivery file uuids copied into the folder so far. */
  copied_files: Generated<string>;
  revoked_at: number | null;
  created_at: number;
}

declare module '../../db/schema' {
  interface Database {
    room_requests: RoomRequestsTable;
  }
}

export type RequestRow = Selectable<RoomRequestsTable>;

/** 32 random bytes (DESIGN §2 asks ≥ 128 bits); only the SHA-256 is stored. */
export const newRequestToken = () => randomBytes(32).toString('base64url');
export const requestTokenHash = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');

export function stateOf(row: Pick<RequestRow, 'used_at' | 'revoked_at' | 'expires_at'>, now = Date.now()): RoomRequestState {
  if (row.revoked_at !== null) return 'revoked';
  if (row.used_at !== null) return 'used';
  return Number(row.expires_at) <= now ? 'expired' : 'open';
}

/** SPEC §8 registration error "invitation expired or used": 410 with the state as the reason. */
export const requestGone = (state: RoomRequestState) =>
  new HttpError(410, 'NotFoundException', 'This request has expired or was already used', { reason: state === 'open' ? 'used' : state });

/** The request of a mailed token: 404 unknown, 410 no longer open. */
export async function openRequestByToken(db: Kysely<Database>, token: string): Promise<RequestRow> {
  const row = await db.selectFrom('room_requests').selectAll().where('token_hash', '=', requestTokenHash(token)).executeTakeFirst();
  if (!row) throw new HttpError(404, 'NotFoundException', 'Request not found');
  const state = stateOf(row);
  if (state !== 'open') throw requestGone(state);
  return row;
}

export function toWire(row: RequestRow, extra: { roomUuid: string; folderUuid: string | null; folderName: string | null; requestedBy: string; requestedByName: string | null }): RoomRequest {
  return {
    uuid: row.uuid,
    roomUuid: extra.roomUuid,
    folderUuid: extra.folderUuid,
    folderName: extra.folderName,
    email: row.email,
    message: row.message,
    requestedBy: extra.requestedBy,
    requestedByName: extra.requestedByName,
    state: stateOf(row),
    createdAt: Number(row.created_at),
    expiresAt: Number(row.expires_at),
    usedAt: row.used_at === null ? null : Number(row.used_at),
    filesCopied: Number(row.files_copied),
  };
}
