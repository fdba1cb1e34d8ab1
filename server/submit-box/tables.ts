import type { Generated } from 'kysely';

/** Tables of the submit box (migrations 0023, 0028), merged into the core's `Database` type. */
export interface SubmitBoxesTable {
  user_id: number;
  uuid: string;
  active: number;
  /** JSON array of wire security levels. */
  allowed_levels: string;
  validity_days: number | null;
  /** Migration 0028: 1 = the owner is mailed about each submission. */
  notify: Generated<number>;
  updated_at: number;
}

export interface SubmitTicketsTable {
  id: Generated<number>;
  /** SHA-256 hex of the mailed token. */
  token_hash: string;
  box_user_id: number;
  email: string;
  language: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
  delivery_id: number | null;
  /** The limited session the use created (sessions.id). */
  session_id: string | null;
  /** Migration 0073: guest tickets the owner created (owner_created 1) are listed and revoked by uuid. */
  uuid: string | null;
  owner_created: Generated<number>;
  subject: string | null;
  message: string | null;
  revoked_at: number | null;
}

export interface SubmitBoxTables {
  submit_boxes: SubmitBoxesTable;
  submit_tickets: SubmitTicketsTable;
}

declare module '../db/schema' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface Database extends SubmitBoxTables {}
}
