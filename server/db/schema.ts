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
  /** 1: a licensed sender (SPEC §3); migration 0017, default 1. */
  licensed: Generated<number>;
  /** sender_groups.id; null: the global security levels only. */
  sender_group_id: number | null;
  /** Terms of use agreed to (migration 0070, shared/contract/terms.ts); null: never. */
  terms_accepted_version: number | null;
  /** Epoch ms of that agreement. */
  terms_accepted_at: number | null;
  /** Storage quota in bytes (migration 0078, uploads/quotas.ts); null: the default `kuvert.storage.userQuota`. */
  storage_quota: Generated<number | null>;
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
  /** `cookie` (web client) or `addin` (Outlook add-in bearer token); see SESSION_KINDS. */
  kind: string;
}

export interface SettingsTable {
  key: string;
  /** JSON text. */
  value: string;
  updated_at: number;
}

/** One row per user who ever set a SecuPass (no row = state `none`). */
export interface SecuPassTable {
  user_id: number;
  /** 'none' | 'active' | 'reset'. */
  state: string;
  /** Blob scheme version (2 or 3) while active. */
  version: number | null;
  /** The wrapped private-key blob, JSON text; null unless active. */
  blob: string | null;
  updated_at: number;
}

export interface PublicKeysTable {
  id: Generated<number>;
  user_id: number;
  key_id: string;
  /** 'encryption' | 'signing'. */
  usage: string;
  /** SPKI, base64url. */
  spki: string;
  /** SHA-256 hex of the SPKI bytes (display only). */
  fingerprint: string;
  created_at: number;
  /** Set by an administrator's SecuPass reset; revoked keys are never handed out. */
  revoked_at: number | null;
}

/** A wrapped file-key copy for one recipient key (written by deliveries and data rooms). */
export interface AccessDescriptorsTable {
  /** uuid. */
  id: string;
  recipient_user_id: number;
  recipient_key_id: string;
  /** 'delivery' | 'dataRoom'. */
  resource_kind: string;
  resource_id: string;
  file_id: string;
  /** shared/crypto WrappedFileKey, JSON text. */
  wrapped_key: string;
  created_at: number;
  /** Set by a SecuPass reset of the recipient: the copy reads as not found from then on. */
  invalidated_at: number | null;
}

/** Migration 0021: each user's contact pin list, sealed by the client (the server cannot read it). */
export interface ContactPinsTable {
  user_id: number;
  counter: number;
  /** shared/crypto SealedContactPins as JSON; null after a SecuPass reset. */
  envelope: string | null;
  updated_at: number;
}

export interface AuditLogTable {
  id: Generated<number>;
  at: number;
  actor_user_id: number | null;
  action: string;
  subject_user_id: number | null;
  /** JSON object text. */
  details: string;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  settings: SettingsTable;
  secupass: SecuPassTable;
  public_keys: PublicKeysTable;
  access_descriptors: AccessDescriptorsTable;
  contact_pins: ContactPinsTable;
  audit_log: AuditLogTable;
}
