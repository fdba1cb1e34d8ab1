import { ROOM_PERMISSIONS, type RoomPermission, type RoomRole } from '@shared/contract/rooms';

/** What a role may do, from the SPEC §6 table (`ROOM_PERMISSIONS`) — not by comparing role names; no role: nothing. */
export const roomMay = (role: RoomRole | undefined, permission: RoomPermission): boolean => role !== undefined && ROOM_PERMISSIONS[role][permission];
