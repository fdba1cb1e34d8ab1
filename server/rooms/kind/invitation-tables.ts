/** Migration 0039: invitations of addresses without an account (rooms/sharing/invitations.ts), merged into `Database`. */
import type { Generated } from 'kysely';

export interface RoomInvitationsTable {
  id: Generated<number>;
  uuid: string;
  room_id: number;
  /** null: on the room itself. */
  folder_id: number | null;
  /** shared/contract/rooms.ts ROOM_ROLES. */
  role: string;
  /** Lower-cased address the link went to. */
  email: string;
  /** SHA-256 hex of the link token (security/link-tokens.ts). */
  token_hash: string;
  expires_at: number;
  /** Set: the signup completed (single use). */
  used_at: number | null;
  /** Set: revoked by an OWNER or replaced by a newer invitation (the link answers 410). */
  revoked_at: number | null;
  invited_by: number | null;
  created_at: number;
}

declare module '../../db/schema' {
  interface Database {
    room_invitations: RoomInvitationsTable;
  }
}
