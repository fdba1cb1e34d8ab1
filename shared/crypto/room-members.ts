// Signed member lists (README section 7 "Who is a member: the signed member list", issue 28 §2
// case 4): an OWNER signs the whole list of members with their roles and the key ids she checked,
// bound to the room and a version counter; every change is a new list. Readers flag a member the
// list does not hold and take a signer's role from it, so a membership row the server invents is
// neither approved silently nor trusted as a writer.
import { fromBase64Url, toBase64Url, utf8Encode } from './bytes';
import { RoomMemberListInvalidError, RoomMemberListRolledBackError } from './errors';
import { canonicalJson } from './manifest';
import { sha256, subtle } from './subtle';

/** The roles of SPEC §6 (shared/contract/rooms.ts ROOM_ROLES; shared/crypto imports no contract). */
const ROLES = ['OWNER', 'EDITOR', 'VIEWER', 'PREVIEWER'] as const;
/** Who may write (sign metadata) and who may sign the list itself. */
const WRITERS: readonly string[] = ['OWNER', 'EDITOR'];
const LIST_SIGNERS: readonly string[] = ['OWNER'];
/** A room of more members is a different product; the bound keeps a served list small to check. */
export const ROOM_MEMBER_LIST_MAX = 5000;

export interface RoomMemberEntry {
  /** User UUID, e-mail address and role as the signer saw them. */
  userId: string;
  email: string;
  role: (typeof ROLES)[number];
  /** The key ids the signer checked (her pin) when she listed the member; null: no SecuPass yet. */
  signingKeyId: string | null;
  encryptionKeyId: string | null;
}

export interface RoomMemberList {
  format: 1;
  roomId: string;
  /** 1 for the first list of a room; each new list counts up by one. */
  version: number;
  /** Sorted by userId, each user once. */
  members: RoomMemberEntry[];
  /** Who signed (an OWNER in this very list) and her signing key id. */
  signerUserId: string;
  signerKeyId: string;
  /** ISO 8601. */
  createdAt: string;
}

export interface SignedRoomMemberList {
  list: RoomMemberList;
  /** ECDSA P-256/SHA-256 over UTF-8(canonicalJson(list)), P1363 (r ‖ s), base64url. */
  signature: string;
}

const ECDSA_SHA256 = { name: 'ECDSA', hash: 'SHA-256' } as const;

/** The members sorted by userId (the signed order); a user listed twice is refused. */
export function sortRoomMembers(members: RoomMemberEntry[]): RoomMemberEntry[] {
  const sorted = members
    .map((m) => ({ userId: m.userId, email: m.email, role: m.role, signingKeyId: m.signingKeyId, encryptionKeyId: m.encryptionKeyId }))
    .sort((x, y) => (x.userId < y.userId ? -1 : x.userId > y.userId ? 1 : 0));
  for (let i = 1; i < sorted.length; i++) {
    if (sorted[i]!.userId === sorted[i - 1]!.userId) throw new RoomMemberListInvalidError('The member list names a user twice');
  }
  return sorted;
}

/** base64url SHA-256 of the canonical list: what a caller shows or compares ("is this the list I signed?"). */
export async function roomMemberListSha256(list: RoomMemberList): Promise<string> {
  return toBase64Url(await sha256(utf8Encode(canonicalJson(list))));
}

export async function signRoomMemberList(
  input: { roomId: string; version: number; members: RoomMemberEntry[]; signerUserId: string; createdAt: string },
  signing: { privateKey: CryptoKey; keyId: string },
): Promise<SignedRoomMemberList> {
  const list: RoomMemberList = {
    format: 1,
    roomId: input.roomId,
    version: input.version,
    members: sortRoomMembers(input.members),
    signerUserId: input.signerUserId,
    signerKeyId: signing.keyId,
    createdAt: input.createdAt,
  };
  checkShape(list);
  const signature = new Uint8Array(await subtle().sign(ECDSA_SHA256, signing.privateKey, utf8Encode(canonicalJson(list)) as Uint8Array<ArrayBuffer>));
  return { list, signature: toBase64Url(signature) };
}

const nonEmpty = (v: unknown): v is string => typeof v === 'string' && v.length > 0;
const keyIdOrNull = (v: unknown) => v === null || nonEmpty(v);

function checkShape(l: Partial<RoomMemberList> | undefined): asserts l is RoomMemberList {
  const fail = (why: string): never => {
    throw new RoomMemberListInvalidError(`The member list ${why}`);
  };
  if (typeof l !== 'object' || l === null || l.format !== 1) fail('has an unknown format');
  const list = l as Partial<RoomMemberList>;
  if (!nonEmpty(list.roomId) || !nonEmpty(list.signerUserId) || !nonEmpty(list.signerKeyId) || !nonEmpty(list.createdAt)) fail('lacks a field');
  if (!Number.isSafeInteger(list.version) || (list.version as number) < 1) fail('has no valid version');
  if (!Array.isArray(list.members) || list.members.length > ROOM_MEMBER_LIST_MAX) fail('has no member array');
  const members = list.members as Partial<RoomMemberEntry>[];
  for (const [i, m] of members.entries()) {
    if (typeof m !== 'object' || m === null || Object.keys(m).length !== 5) fail('has a malformed member');
    if (!nonEmpty(m.userId) || !nonEmpty(m.email) || !(ROLES as readonly unknown[]).includes(m.role) || !keyIdOrNull(m.signingKeyId) || !keyIdOrNull(m.encryptionKeyId)) fail('has a malformed member');
    if (i > 0 && !(members[i - 1]!.userId! < m.userId!)) fail('is not sorted by user or names a user twice');
  }
  const signer = members.find((m) => m.userId === list.signerUserId);
  if (!signer || !LIST_SIGNERS.includes(signer.role as string)) fail('is not signed by an OWNER it lists');
}

/** What the reader knows: the room she opened, and the lowest version she accepts (the last one she saw; 1 if none). */
export interface RoomMemberListExpectation {
  roomId: string;
  minVersion?: number;
}

/**
 * RoomMemberListInvalidError unless the list is well-formed, sorted, signed by an OWNER it lists
 * with her (pinned) key and for this room; RoomMemberListRolledBackError when it is older than
 * `minVersion` (the highest version the user's devices saw as the latest: a rollback).
 */
export async function verifyRoomMemberList(signed: SignedRoomMemberList, verifyingKey: CryptoKey, expected: RoomMemberListExpectation): Promise<RoomMemberList> {
  if (typeof signed !== 'object' || signed === null || typeof signed.signature !== 'string') throw new RoomMemberListInvalidError('The member list has no signature');
  const list = signed.list as Partial<RoomMemberList> | undefined;
  checkShape(list);
  let valid = false;
  try {
    valid = await subtle().verify(ECDSA_SHA256, verifyingKey, fromBase64Url(signed.signature) as Uint8Array<ArrayBuffer>, utf8Encode(canonicalJson(list)) as Uint8Array<ArrayBuffer>);
  } catch {
    valid = false;
  }
  if (!valid) throw new RoomMemberListInvalidError('The member list signature does not verify with the signer\'s key');
  if (list.roomId !== expected.roomId) throw new RoomMemberListInvalidError('The member list is for another room');
  if (list.version < (expected.minVersion ?? 1)) throw new RoomMemberListRolledBackError(`The server serves member list ${list.version} as the latest; version ${expected.minVersion} was seen before`);
  return list;
}

/** The member's entry in a verified list, or undefined: not a member as far as an OWNER signed. */
export function listedMember(list: RoomMemberList, userId: string): RoomMemberEntry | undefined {
  return list.members.find((m) => m.userId === userId);
}

/** Whether the verified list holds the user with a role that may write (OWNER, EDITOR). */
export function isListedWriter(list: RoomMemberList, userId: string): boolean {
  const m = listedMember(list, userId);
  return m !== undefined && WRITERS.includes(m.role);
}

/** Whether the verified list holds the user as an OWNER (who grants copies and signs lists). */
export function isListedOwner(list: RoomMemberList, userId: string): boolean {
  const m = listedMember(list, userId);
  return m !== undefined && LIST_SIGNERS.includes(m.role);
}
