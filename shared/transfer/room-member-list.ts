import { call } from '@shared/api/call';
import type { ApiClient } from '@shared/api/client';
import { ROOM_E2E_ENDPOINTS } from '@shared/contract/endpoints/rooms-e2e';
import type { RoomMemberListState } from '@shared/contract/rooms-e2e-member-list';
import { ROOM_WRITER_ROLES } from '@shared/crypto/room';
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
 * names and the reader pinned, another room), `room-member-list-rolled-back` (an older version than
 * `minVersion`), or
 * `contact-key-changed` (the signer's pinned key changed and was not confirmed).
 */
export async function verifyMemberListState(client: ApiClient, e2e: E2eOptions, input: { roomUuid: string; me: string; state: RoomMemberListState; minVersion?: number; version?: number }): Promise<RoomMemberListTrust> {
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
    // A version asked for: that one, not another the server hands out instead.
    if (input.version !== undefined && list.version !== input.version) return { ok: false, code: 'room-member-list-invalid' };
    return { ok: true, list };
  } catch (error) {
    return { ok: false, code: (error as { code?: string }).code ?? 'room-member-list-invalid' };
  }
}

/**
 * The highest member list version per room the user's devices accepted as the latest (README section
 * 7 "The highest list version seen"; ServerKeyPinStore keeps it in her signed, synced pin list).
 */
export interface MemberListMemory {
  memberListVersion(roomId: string): number;
  raiseMemberListVersions(entries: { roomId: string; version: number }[]): Promise<void>;
}

/**
 * GET …/e2e/member-list (`version`: that earlier list), then verifyMemberListState. With `memory`
 * the latest list must not be older than the highest version seen (`room-member-list-rolled-back`,
 * also when the server serves no list at all after one was seen); a newer one raises the memory.
 */
export async function roomMemberListTrust(client: ApiClient, e2e: E2eOptions, input: { roomUuid: string; me: string; minVersion?: number; version?: number; memory?: MemberListMemory }): Promise<RoomMemberListTrust & { state: RoomMemberListState }> {
  const { memory, ...rest } = input;
  const state = await call(client, ROOM_E2E_ENDPOINTS.memberList, { params: { roomUuid: input.roomUuid }, query: input.version === undefined ? {} : { version: input.version } });
  const seen = memory && input.version === undefined ? memory.memberListVersion(input.roomUuid) : 0;
  if (seen > 0 && !state.signedList) return { ok: false, code: 'room-member-list-rolled-back', state };
  const minVersion = Math.max(rest.minVersion ?? 0, seen);
  const trust = await verifyMemberListState(client, e2e, { ...rest, state, ...(minVersion > 0 ? { minVersion } : {}) });
  if (trust.ok && memory && input.version === undefined) await memory.raiseMemberListVersions([{ roomId: input.roomUuid, version: trust.list.version }]);
  return { ...trust, state };
}

/**
 * What the reader checks a file's signer against (README section 7 "Roles at signing time"):
 * `signerAtSigning` for metadata bound to a member list version (the role in that very list, null:
 * not a member then), `signer` for unbound metadata (the latest list, `signerRoleOf`), or the code
 * that refuses the file — `room-member-list-version-unknown` (bound to a version the server does
 * not hand out: newer than any it stored, or withheld) or that list's own refusal
 * (`room-member-list-invalid`, `contact-key-changed`).
 */
export type SignerRoleCheck =
  | { signer: { userId: string; role: string | null } }
  | { signerAtSigning: { memberListVersion: number; role: string | null } }
  | { code: string };

/**
 * The signer checks of one room for as long as a folder is read: each earlier list is fetched and
 * verified once. `latest`: the verified latest list (null: none, or it failed).
 */
export function signerRoleChecks(client: ApiClient, e2e: E2eOptions, input: { roomUuid: string; me: string; latest: RoomMemberList | null }) {
  const earlier = new Map<number, Promise<RoomMemberListTrust>>();
  const listAt = (version: number): Promise<RoomMemberListTrust> => {
    let trust = earlier.get(version);
    if (!trust) {
      trust = roomMemberListTrust(client, e2e, { roomUuid: input.roomUuid, me: input.me, version }).catch((error: unknown) =>
        // 404: the server keeps no list of that version (one it never stored, or withholds).
        (error as { status?: number }).status === 404 ? { ok: false as const, code: 'room-member-list-version-unknown' } : Promise.reject(error),
      );
      earlier.set(version, trust);
    }
    return trust;
  };
  return async (metadata: { memberListVersion?: number }, signer: { userUuid: string; role: string | null }): Promise<SignerRoleCheck> => {
    const version = metadata.memberListVersion;
    if (version === undefined) return { signer: { userId: signer.userUuid, role: signerRoleOf(input.latest, signer) } };
    // Any other version than the latest verified one is fetched and verified on its own: one the server
    // does not hand out (newer than any it stored, or withheld) refuses the file.
    const trust = input.latest?.version === version ? { ok: true as const, list: input.latest } : await listAt(version);
    if (!trust.ok) return { code: trust.code };
    return { signerAtSigning: { memberListVersion: version, role: listedMember(trust.list, signer.userUuid)?.role ?? null } };
  };
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

/** How often an OWNER's write re-reads, re-applies and re-signs after a 409 (another OWNER wrote meanwhile). */
export const MEMBER_LIST_WRITE_ATTEMPTS = 3;

/**
 * An OWNER writes the next list: the members of `current` (the verified list, or null for the
 * first one of a room) with `changes` applied (an `upsert` entry replaces the member's, an `addOnly`
 * entry is added only when she is not listed, `remove` drops her), signed with her key, version + 1.
 * Answers the stored list. On 409 (another OWNER stored a list
 * meanwhile) it reads and verifies the latest list, applies the same change to it, signs and tries
 * again, at most MEMBER_LIST_WRITE_ATTEMPTS times in all (a `base` for a first list is dropped then:
 * the other OWNER's list is the first). A latest list that does not verify throws
 * RoomMemberListWriteError with its code; nothing is signed over it. With `memory` the stored
 * version raises the highest version seen.
 */
export async function writeRoomMemberList(
  client: ApiClient,
  e2e: E2eOptions,
  input: { roomUuid: string; me: string; current: RoomMemberList | null; base?: RoomMemberEntry[]; upsert?: RoomMemberEntry[]; addOnly?: RoomMemberEntry[]; remove?: string[]; memory?: MemberListMemory },
): Promise<RoomMemberListState> {
  let current = input.current;
  let base = input.base;
  for (let attempt = 1; ; attempt++) {
    const members = new Map((current?.members ?? base ?? []).map((m) => [m.userId, m]));
    for (const entry of input.upsert ?? []) members.set(entry.userId, entry);
    // Listed only when the list does not hold her yet (e.g. another OWNER approved her meanwhile, with keys).
    for (const entry of input.addOnly ?? []) if (!members.has(entry.userId)) members.set(entry.userId, entry);
    for (const userId of input.remove ?? []) members.delete(userId);
    const signedList = await e2e.crypto.signRoomMemberList({
      signingKey: e2e.keys.signing.handle,
      roomId: input.roomUuid,
      version: (current?.version ?? 0) + 1,
      members: [...members.values()],
      signerUserId: input.me,
      createdAt: new Date().toISOString(),
    });
    try {
      const stored = await call(client, ROOM_E2E_ENDPOINTS.putMemberList, { params: { roomUuid: input.roomUuid }, body: { signedList } });
      if (input.memory) await input.memory.raiseMemberListVersions([{ roomId: input.roomUuid, version: signedList.list.version }]);
      return stored;
    } catch (error) {
      if ((error as { status?: number }).status !== 409 || attempt >= MEMBER_LIST_WRITE_ATTEMPTS) throw error;
    }
    const latest = await roomMemberListTrust(client, e2e, { roomUuid: input.roomUuid, me: input.me, ...(input.memory ? { memory: input.memory } : {}) });
    if (!latest.ok) throw new RoomMemberListWriteError(latest.code);
    current = latest.list;
    base = undefined;
  }
}

/** The latest list, re-read after a 409, did not verify: the change was not signed over it (`code`: why). */
export class RoomMemberListWriteError extends Error {
  override readonly name = 'RoomMemberListWriteError';
  constructor(readonly code: string) {
    super(`The latest member list does not verify (${code}); the change was not signed`);
  }
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

/**
 * Whether a Secure room comment's author may have written it (README section 7 "Comments"): a
 * comment binds no list version, so her role in the latest verified list counts, as for unbound
 * file metadata (`signerRoleOf`): a VIEWER, PREVIEWER or a member the list does not hold while the
 * server still calls her one is refused (`room-signer-not-writer`); a former member's comments stay
 * readable. Without a verified list: the server's role.
 */
export function commentAuthorRefusal(list: RoomMemberList | null, author: { userUuid: string; role: string | null }): 'room-signer-not-writer' | null {
  const role = signerRoleOf(list, author);
  return role === null || ROOM_WRITER_ROLES.includes(role) ? null : 'room-signer-not-writer';
}
