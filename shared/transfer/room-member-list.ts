import { call } from '@shared/api/call';
import type { ApiClient } from '@shared/api/client';
import { ROOM_E2E_ENDPOINTS } from '@shared/contract/endpoints/rooms-e2e';
import type { RoomMemberListState } from '@shared/contract/rooms-e2e-member-list';
import { listedMember, type RoomMemberEntry, type RoomMemberList } from '@shared/crypto/room-members';
import { verifiedContactKey, type E2eOptions } from './e2e';

/**
 * The signed member list of an E2E room on the client (shared/crypto/README.md section 7 "Who is a
 * member: the signed member list"): read and verify it, tell which members it does not hold, and
 * (an OWNER) write the next one. The web client (web/features/rooms/e2e/e2e-room-client.ts) and the
 * Node tests run this same code.
 */
export type RoomMemberListTrust = { ok: true; list: RoomMemberList } | { ok: false; code: string };

/**
 * `ok` with the verified list, or the code that refused it: `room-member-list-missing` (none
 * written yet), `room-member-list-invalid` (not signed by an OWNER it lists with the key the server
 * names and the reader pinned, another room, an older version than `minVersion`), or
 * `contact-key-changed` (the signer's pinned key changed and was not confirmed).
 */
export async function verifyMemberListState(client: ApiClient, e2e: E2eOptions, input: { roomUuid: string; me: string; state: RoomMemberListState; minVersion?: number }): Promise<RoomMemberListTrust> {
  const { signedList, signer } = input.state;
  if (!signedList) return { ok: false, code: 'room-member-list-missing' };
  if (!signer || signer.userUuid !== signedList.list.signerUserId) return { ok: false, code: 'room-member-list-invalid' };
  const listed = signer.keys.find((k) => k.usage === 'signing' && k.keyId === signedList.list.signerKeyId);
  if (!listed) return { ok: false, code: 'room-member-list-invalid' };
  try {
    let publicKey: string;
    if (signer.userUuid === input.me) {
      // Her own list: checked against her own unlocked key, not a pin.
      if (listed.keyId !== e2e.keys.signing.keyId) return { ok: false, code: 'room-member-list-invalid' };
      publicKey = e2e.keys.signing.publicKey;
    } else {
      publicKey = (await verifiedContactKey(client, e2e, { email: signer.email, userUuid: signer.userUuid, usage: 'signing', keyId: listed.keyId, publicKey: listed.publicKey, ...(listed.retired ? { retired: true } : {}) })).publicKey;
    }
    const list = await e2e.crypto.verifyRoomMemberList({ signed: signedList, signerPublicKey: publicKey, expected: { roomId: input.roomUuid, ...(input.minVersion ? { minVersion: input.minVersion } : {}) } });
    return { ok: true, list };
  } catch (error) {
    return { ok: false, code: (error as { code?: string }).code ?? 'room-member-list-invalid' };
  }
}

/** GET …/e2e/member-list, then verifyMemberListState. */
export async function roomMemberListTrust(client: ApiClient, e2e: E2eOptions, input: { roomUuid: string; me: string; minVersion?: number }): Promise<RoomMemberListTrust & { state: RoomMemberListState }> {
  const state = await call(client, ROOM_E2E_ENDPOINTS.memberList, { params: { roomUuid: input.roomUuid } });
  return { ...(await verifyMemberListState(client, e2e, { ...input, state })), state };
}

/**
 * Why the reader flags a member the server lists: `unlisted` (the signed list does not hold her:
 * a row an OWNER never signed, e.g. one the server added) or `roleDiffers` (the server says another
 * role than the signed list; the list's role is the one the reader uses). Members the list holds
 * with the same role are not in the answer.
 */
export type MemberListFlag = 'unlisted' | 'roleDiffers';

export function memberListFlags(list: RoomMemberList | null, members: readonly { user: { uuid: string }; role: string }[]): Map<string, MemberListFlag> {
  const flags = new Map<string, MemberListFlag>();
  if (!list) return flags;
  const byUser = new Map(list.members.map((m) => [m.userId, m]));
  for (const member of members) {
    const entry = byUser.get(member.user.uuid);
    if (!entry) flags.set(member.user.uuid, 'unlisted');
    else if (entry.role !== member.role) flags.set(member.user.uuid, 'roleDiffers');
  }
  return flags;
}

/**
 * An OWNER writes the next list: the members of `current` (the verified list, or null for the
 * first one of a room) with `changes` applied (an entry replaces the member's, `remove` drops her),
 * signed with her key, version + 1. Answers the stored list.
 */
export async function writeRoomMemberList(
  client: ApiClient,
  e2e: E2eOptions,
  input: { roomUuid: string; me: string; current: RoomMemberList | null; base?: RoomMemberEntry[]; upsert?: RoomMemberEntry[]; remove?: string[] },
): Promise<RoomMemberListState> {
  const members = new Map((input.current?.members ?? input.base ?? []).map((m) => [m.userId, m]));
  for (const entry of input.upsert ?? []) members.set(entry.userId, entry);
  for (const userId of input.remove ?? []) members.delete(userId);
  const signedList = await e2e.crypto.signRoomMemberList({
    signingKey: e2e.keys.signing.handle,
    roomId: input.roomUuid,
    version: (input.current?.version ?? 0) + 1,
    members: [...members.values()],
    signerUserId: input.me,
    createdAt: new Date().toISOString(),
  });
  return call(client, ROOM_E2E_ENDPOINTS.putMemberList, { params: { roomUuid: input.roomUuid }, body: { signedList } });
}

/** The entry an OWNER signs for a member of the members table (after her pin check of the keys): role and live key ids. */
export function memberEntryOf(member: { user: { uuid: string; email: string }; role: RoomMemberEntry['role']; keys: readonly { usage: string; keyId: string }[] }): RoomMemberEntry {
  const keyId = (usage: string) => member.keys.find((k) => k.usage === usage)?.keyId ?? null;
  return { userId: member.user.uuid, email: member.user.email, role: member.role, signingKeyId: keyId('signing'), encryptionKeyId: keyId('encryption') };
}

/**
 * The role the reader checks a file's signer against (README section 7 "The signer of a file"):
 * with a verified list, the role it signs; a signer the list does not hold while the server still
 * calls her a member is `UNLISTED` (no writer: her metadata is refused, `room-signer-not-writer`);
 * one the server no longer lists keeps null (removed since: her earlier files stay readable — the
 * list of the time of signing is not kept). Without a verified list: the server's role.
 */
export function signerRoleOf(list: RoomMemberList | null, signer: { userUuid: string; role: string | null }): string | null {
  if (!list) return signer.role;
  const entry = listedMember(list, signer.userUuid);
  if (entry) return entry.role;
  return signer.role === null ? null : 'UNLISTED';
}
