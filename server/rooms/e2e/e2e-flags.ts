// The SPEC §3 E2E flags of a member, computed once for GET …/access and GET …/e2e/members so both
// say the same (the contract's RoomAccessEntry/E2eMember describe them).
import type { E2eMemberState } from '@shared/contract/rooms-e2e';

export interface E2eAccessFlags {
  missingFileKey: boolean;
  encryptionNotActivated: boolean;
}

/**
 * `activated`: the member has an active SecuPass with a live encryption key; `hasRoomKeyCopy`: a
 * live room-key copy wrapped to that key. Not activated → only `encryptionNotActivated` (there is
 * nothing to grant to yet); activated without a copy (pending or declined) → only `missingFileKey`.
 * A plain room (`e2e` false): no flag.
 */
export function e2eAccessFlags(e2e: boolean, member: { activated: boolean; hasRoomKeyCopy: boolean }): E2eAccessFlags {
  if (!e2e) return { missingFileKey: false, encryptionNotActivated: false };
  return { missingFileKey: member.activated && !member.hasRoomKeyCopy, encryptionNotActivated: !member.activated };
}

/** The same flags from an E2E member's key state (rooms/e2e/e2e-rooms.ts memberStates). */
export const e2eAccessFlagsOfState = (state: E2eMemberState): E2eAccessFlags =>
  e2eAccessFlags(true, { activated: state !== 'noSecuPass', hasRoomKeyCopy: state === 'approved' });
