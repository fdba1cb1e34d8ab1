import { ROOM_PERMISSIONS, type RoomPermission, type RoomRole } from '@shared/contract/rooms';

/** What a role may do, from the SPEC §6 table (`ROOM_PERMISSIONS`) — not by comparing role names; no role: nothing. */
export const roomMay = (role: RoomRole | undefined, permission: RoomPermission): boolean => role !== undefined && ROOM_PERMISSIONS[role][permission];

/**
 * What the caller may do with a comment (issue 31 §1): who may edit there (OWNER, EDITOR) writes and
 * edits or deletes her own; who manages access there (OWNER) deletes anyone's.
 */
export const commentMay = (role: RoomRole | undefined, own: boolean): { edit: boolean; delete: boolean } => ({
  edit: own && roomMay(role, 'edit'),
  delete: (own && roomMay(role, 'edit')) || roomMay(role, 'manageAccess'),
});

/** A chosen row of a Secure room's table: its decrypted name (null: it did not open). */
export interface E2eChosenRow {
  kind: 'file' | 'folder';
  uuid: string;
  name: string | null;
}

/**
 * What a Secure room's selection toolbar offers the caller's role in the open folder (issue 32 §2,
 * as a row's menu): Download as ZIP (not a PREVIEWER); Move and Delete (OWNER, EDITOR). Move needs
 * every chosen name opened: the name check against the target is made on decrypted names (e2e-move.ts).
 */
export const e2eSelectionMay = (role: RoomRole | undefined, rows: readonly Pick<E2eChosenRow, 'name'>[]): { zip: boolean; move: boolean; delete: boolean } => ({
  zip: roomMay(role, 'download'),
  move: roomMay(role, 'edit') && rows.every((row) => !!row.name),
  delete: roomMay(role, 'delete'),
});
