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
