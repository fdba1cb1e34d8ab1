import type { SecurityLevel } from '@shared/contract/deliveries';
import type { Generated } from 'kysely';

/**
 * Delivery tables, merged into the core's `Database` type. Conventions of the core:
 * times epoch milliseconds (bigint), flags 0/1, lists/objects JSON text.
 *
 * Levels 3/4 fit without a new table for files: `delivery_files.encrypted` marks parts in
 * the E2E stream format, `header_hash` binds them, `deliveries.manifest` holds the signed
 * manifest (encrypted, see e2e-keys.ts). Wrapped file-key copies per recipient are `access_descriptors`
 * (resource kind `delivery`, resource id = delivery uuid, file id = file uuid or `manifest`).
 */
export interface DeliveriesTable {
  id: Generated<number>;
  uuid: string;
  sender_id: number;
  /** 'draft' | 'sent' | 'deleted'. */
  status: string;
  subject: string;
  body: string;
  /** SPEC §4 wire value (shared/contract/security-levels.ts). */
  security_level: SecurityLevel;
  language: string;
  /** null: permanently available. */
  validity_days: number | null;
  /** Set at send from validity_days; null: permanently available. */
  expires_at: number | null;
  /** SPEC §4 review state (see ReviewStateSchema). */
  review_state: string;
  /** Level 3/4: the sender-signed manifest (JSON text); null otherwise. */
  manifest: string | null;
  created_at: number;
  sent_at: number | null;
  deleted_at: number | null;
  /** The expiry sweep removed the file bytes at this time. */
  purged_at: number | null;
  /** Migration 0025 (reports): the UTC day of `sent_at` (epoch ms / 86 400 000); null while a draft. */
  sent_day: Generated<number | null>;
  /** Migration 0025 (reports): recipient rows (both kinds) at send; null while a draft. */
  recipient_count: Generated<number | null>;
  /** Migration 0028: 1 = sending mails nobody (a submit box whose owner switched its notification off). */
  quiet: Generated<number>;
}

/** One row per recipient ("share", SPEC §3: shareUuid). */
export interface DeliveryRecipientsTable {
  id: Generated<number>;
  uuid: string;
  delivery_id: number;
  /** Lower-cased address. */
  email: string;
  /** 'recipient' | 'additional'. */
  kind: string;
  /** Level 1: SHA-256 hex of the link token (the token itself is only ever in the mail). */
  token_hash: string | null;
  notified_at: number | null;
  downloaded_at: number | null;
  decrypted_at: number | null;
  /** The recipient removed it from their inbox. */
  removed_at: number | null;
  /**
   * The inbox's sort key (migration 0015): the delivery's `sent_at` while it is in this inbox;
   * null while a draft, after the sender deleted it or the recipient removed it.
   */
  listed_at: number | null;
  created_at: number;
}

export interface DeliveryFilesTable {
  id: Generated<number>;
  uuid: string;
  delivery_id: number;
  name: string;
  size: number;
  mime_type: string;
  part_size: number;
  part_count: number;
  /** 'uploading' | 'committed'; only committed files are downloadable. */
  status: string;
  /** Levels 3/4: parts hold the E2E stream format. */
  encrypted: number;
  /** Levels 3/4: SHA-256 of the stream header (the records' associated data). */
  header_hash: string | null;
  /** Levels 3/4: the stream header's bytes, carried by part 0 on top of its records (migration 0011). */
  leading_bytes: Generated<number>;
  created_at: number;
  committed_at: number | null;
  /** 1 while this committed file's bytes count in the storage report's totals (migration 0029, deliveries/stored-files.ts). */
  stored: Generated<number>;
  /** SPEC §4 virus scan: 'notScanned' | 'scanning' | 'clean' | 'virusDetected' | 'error' (ScanStateSchema). */
  scan_state: Generated<string>;
  /** Virus names, the scanner's last error, or `mime:<type>` when the content sniff found a forbidden type. */
  scan_detail: string | null;
  scanned_at: number | null;
}

export interface DeliveryFilePartsTable {
  file_id: number;
  part_index: number;
  size: number;
  sha256: string;
  created_at: number;
}

export interface DeliveryActivityTable {
  id: Generated<number>;
  delivery_id: number;
  /** ActivityKindSchema. */
  kind: string;
  actor: string | null;
  /** The recipient row concerned, if any (recipients see their own entries). */
  recipient_id: number | null;
  detail: string | null;
  created_at: number;
  /** `downloaded` only (migration 0029, the downloads report): the delivery's level; null otherwise. */
  security_level: SecurityLevel | null;
  /** `downloaded` only: the UTC day of `created_at` (epoch ms / 86 400 000); null otherwise. */
  day: number | null;
}

/** Administrator-defined sender groups (migration 0017). */
export interface SenderGroupsTable {
  id: Generated<number>;
  uuid: string;
  name: string;
  /** JSON array of SPEC §4 level wire values the group may send with. */
  levels: string;
  created_at: number;
}

/** The level-1 email prompt's proof (migration 0017): SHA-256 of the cookie value, bound to one share. */
export interface ShareProofsTable {
  hash: string;
  recipient_id: number;
  expires_at: number;
}

/** Per share (recipient): the external path's signup state (signups.ts, external/). Times epoch ms. */
export interface DeliverySignupsTable {
  /** delivery_recipients.id (the share). */
  recipient_id: number;
  /** E.164, given by the sender; null = none. */
  phone_number: string | null;
  /** SHA-256 hex of the signup link token; null once used or never issued. */
  token_hash: string | null;
  /** SHA-256 hex of `salt:code` of the open SMS code. */
  code_hash: string | null;
  code_salt: string | null;
  code_attempts: number;
  code_sent_at: number | null;
  code_expires_at: number | null;
  updated_at: number;
}

export interface DeliveryTables {
  sender_groups: SenderGroupsTable;
  share_proofs: ShareProofsTable;
  deliveries: DeliveriesTable;
  delivery_recipients: DeliveryRecipientsTable;
  delivery_files: DeliveryFilesTable;
  delivery_file_parts: DeliveryFilePartsTable;
  delivery_activity: DeliveryActivityTable;
  delivery_signups: DeliverySignupsTable;
}

declare module '../db/schema' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface Database extends DeliveryTables {}
}
