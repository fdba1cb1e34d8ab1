import type { Generated } from 'kysely';

/**
 * Tables of the core (A2's escalation tables are declared beside their modules and
 * merged in through declaration merging on `Database`).
 *
 * NB: to stay identical on SQLite and PostgreSQL, booleans are stored as 0/1 integers,
 * times as epoch milliseconds (bigint; the pg driver is told to return numbers) and
 * lists/objects as JSON text.
 */
export interface UsersTable {
  id: Generated<number>;
  uuid: string;
  username: string;
  email: string;
  first_name: string;
  last_name: string;
  password_hash: string;
  /** JSON array of SPEC §6 role names. */
  roles: string;
  language: string;
  disabled: number;
  email_verified: number;
  totp_secret: string | null;
  totp_pending_secret: string | null;
  totp_required: number;
  created_at: number;
  updated_at: number;
}

export interface SessionsTable {
  /** SHA-256 (hex) of the cookie token: a database leak does not hand out sessions. */
  id: string;
  user_id: number;
  csrf_token: string;
  created_at: number;
  last_seen_at: number;
  /** Absolute end, whatever the activity. */
  expires_at: number;
}

export interface SettingsTable {
  key: string;
  /** JSON text. */
  value: string;
  updated_at: number;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  settings: SettingsTable;
}
