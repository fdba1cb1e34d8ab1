import type { Generated } from 'kysely';

/**
 * Data-room tables (migrations 0022, 0026), merged into the core's `Database` type. Conventions of the
 * core: times epoch milliseconds (bigint), flags 0/1.
 */
export interface DataRoomsTable {
  id: Generated<number>;
  uuid: string;
  name: string;
  /** 1: end-to-end encrypted (not available yet; the create call refuses it). */
  encrypted: Generated<number>;
  created_by: number | null;
  created_at: number;
  updated_at: number;
  /** Set: in the trash. */
  deleted_at: number | null;
  deleted_by: number | null;
  /** Migration 0066: the retention period in force (days); null: none (plain/retention.ts). */
  retention_days: Generated<number | null>;
  /** Migration 0066: a change waiting for the end of the day: the period (null: none) from `retention_next_at`. */
  retention_next_days: Generated<number | null>;
  /** Migration 0066: when the waiting change takes over (start of the server's next local day); null: no change waits. */
  retention_next_at: Generated<number | null>;
  /** Migration 0078: the room's storage quota in bytes (uploads/quotas.ts); null: none. */
  storage_quota: Generated<number | null>;
}

export interface RoomFoldersTable {
  id: Generated<number>;
  uuid: string;
  room_id: number;
  /** null: at the room's top level. */
  parent_id: number | null;
  name: string;
  created_by: number | null;
  created_at: number;
  updated_at: number;
  deleted_at: number | null;
  deleted_by: number | null;
  /** Migration 0065: SPEC §4 classification and file status (shared/contract/rooms.ts); 'none' in Secure rooms (signed metadata there). */
  classification: Generated<string>;
  file_status: Generated<string>;
}

export interface RoomAccessTable {
  id: Generated<number>;
  room_id: number;
  /** null: set on the room itself. */
  folder_id: number | null;
  user_id: number;
  /** shared/contract/rooms.ts ROOM_ROLES. */
  role: string;
  wrapped_key: string | null;
  granted_by: number | null;
  created_at: number;
}

/** Migration 0026: a file of a plain room; bytes as parts under `blob_prefix` (server/uploads). */
export interface RoomFilesTable {
  id: Generated<number>;
  uuid: string;
  room_id: number;
  /** null: at the room's top level. */
  folder_id: number | null;
  name: string;
  size: number;
  mime_type: string;
  part_size: number;
  part_count: number;
  /** SHA-256 (hex) of the whole file, set at the commit. */
  sha256: string | null;
  blob_prefix: string;
  /** 'uploading' | 'complete'. */
  state: string;
  uploaded_by: number | null;
  created_at: number;
  updated_at: number;
  deleted_at: number | null;
  deleted_by: number | null;
  /** Migration 0032: SPEC §3 virus-scan state (scan.ts ROOM_SCAN_STATES) and the virus names or scanner error. */
  scan_state: Generated<string>;
  scan_detail: string | null;
  /** Migration 0032: an upload that becomes the next version of this file at its commit (versions.ts). */
  replaces_id: number | null;
  /** Migration 0032: the replace upload whose content the file holds now (a repeated commit answers the file). */
  last_upload_uuid: string | null;
  /** Migration 0065: SPEC §4 classification and file status (shared/contract/rooms.ts); 'none' in Secure rooms (signed metadata there). */
  classification: Generated<string>;
  file_status: Generated<string>;
  /** Migration 0079: the drop link (sharing/drop-links.ts) the file was uploaded through; null: a member's upload. */
  drop_link_id: Generated<number | null>;
}

/** Migration 0065: a comment on a file or a folder (one of the two ids set); Secure rooms: `text` sealed, `signature` set. */
export interface RoomCommentsTable {
  id: Generated<number>;
  uuid: string;
  room_id: number;
  folder_id: number | null;
  file_id: number | null;
  author_id: number | null;
  text: string;
  signature: string | null;
  created_at: number;
  updated_at: number;
}

/** Migration 0032: an earlier content of a file (versions.ts), bytes under its own `blob_prefix`. */
export interface RoomFileVersionsTable {
  id: Generated<number>;
  uuid: string;
  file_id: number;
  version: number;
  size: number;
  mime_type: string;
  part_size: number;
  part_count: number;
  sha256: string | null;
  blob_prefix: string;
  scan_state: string;
  uploaded_by: number | null;
  created_at: number;
  replaced_at: number;
}

export interface RoomFilePartsTable {
  file_id: number;
  part_index: number;
  size: number;
  sha256: string;
  created_at: number;
}

export interface RoomActivityTable {
  id: Generated<number>;
  room_id: number;
  folder_id: number | null;
  file_id: number | null;
  /** shared/contract/rooms.ts ROOM_ACTIVITY_KINDS. */
  kind: string;
  /** 'room' | 'folder' | 'file', and its uuid (kept when the item is purged). */
  item_type: string;
  item_uuid: string;
  actor_id: number | null;
  actor: string;
  item_name: string;
  detail: string | null;
  created_at: number;
}

export interface RoomTables {
  data_rooms: DataRoomsTable;
  room_folders: RoomFoldersTable;
  room_access: RoomAccessTable;
  room_files: RoomFilesTable;
  room_file_parts: RoomFilePartsTable;
  room_activity: RoomActivityTable;
  room_file_versions: RoomFileVersionsTable;
  room_comments: RoomCommentsTable;
}

declare module '../../db/schema' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface Database extends RoomTables {}
}
