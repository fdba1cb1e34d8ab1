/** Migration 0031: the E2E parts of data rooms (shared/crypto/README.md "7. Data rooms"), merged into `Database`. */
export interface RoomE2eFilesTable {
  /** room_files.id: one row per E2E file (the current version). */
  file_id: number;
  version: number;
  plaintext_size: number;
  /** The file key sealed under the room key ("r1.…"). */
  wrapped_file_key: string;
  /** The signed metadata sealed under the room key ("r1.…"). */
  metadata: string;
  /** Migration 0042: who signed `metadata` when not the uploader (a rename re-signs); null = the uploader. */
  signed_by: number | null;
}

/** Migration 0042: the sealed extras of an earlier version (room_file_versions row) of an E2E file. */
export interface RoomE2eVersionsTable {
  version_id: number;
  version: number;
  plaintext_size: number;
  wrapped_file_key: string;
  metadata: string;
  signed_by: number | null;
}

export interface RoomE2eDeclinesTable {
  room_id: number;
  user_id: number;
  /** The member's encryption key id the OWNER declined. */
  key_id: string;
  declined_by: number | null;
  declined_at: number;
}

/** Migration 0056: the signed grant of a member's room-key copy (shared/crypto/README.md section 7). */
export interface RoomE2eKeyGrantsTable {
  room_id: number;
  user_id: number;
  /** The encryption key id of the copy the grant signs. */
  recipient_key_id: string;
  granted_by: number | null;
  /** JSON of the SignedRoomKeyGrant as the granter's browser sent it. */
  signed_grant: string;
  created_at: number;
}

/** Migration 0057: the latest signed member list of an E2E room (shared/crypto/README.md section 7). */
export interface RoomE2eMemberListsTable {
  room_id: number;
  version: number;
  signed_by: number | null;
  /** JSON of the SignedRoomMemberList as the OWNER's browser sent it. */
  signed_list: string;
  created_at: number;
}

/** Migration 0062: every signed member list of an E2E room, by version (README section 7 "Roles at signing time"). */
export type RoomE2eMemberListVersionsTable = RoomE2eMemberListsTable;

/** Migration 0083: a Secure room folder's sealed, signed classification and status (README section 7 "Folder labels"). */
export interface RoomE2eFolderLabelsTable {
  folder_id: number;
  /** The values sealed under the room key ("r1.…"). */
  labels: string;
  /** "<signerKeyId>.<signature>" over the sealed string and its binding. */
  signature: string;
  signed_by: number | null;
  updated_at: number;
}

export interface RoomE2eTables {
  room_e2e_folder_labels: RoomE2eFolderLabelsTable;
  room_e2e_files: RoomE2eFilesTable;
  room_e2e_declines: RoomE2eDeclinesTable;
  room_e2e_versions: RoomE2eVersionsTable;
  room_e2e_key_grants: RoomE2eKeyGrantsTable;
  room_e2e_member_lists: RoomE2eMemberListsTable;
  room_e2e_member_list_versions: RoomE2eMemberListVersionsTable;
}

declare module '../../db/schema' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface Database extends RoomE2eTables {}
}
