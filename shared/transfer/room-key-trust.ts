import type { ApiClient } from '@shared/api/client';
import type { E2eRoomState } from '@shared/contract/rooms-e2e';
import { ROOM_KEY_EPOCH } from '@shared/crypto/room-grant';
import { isListedOwner, type RoomMemberList } from '@shared/crypto/room-members';
import { verifiedContactKey, type E2eOptions } from './e2e';

/**
 * Whether a member's copy of a room key was granted by an OWNER of the room (shared/crypto/README.md
 * section 7 "Who made my copy of the room key"): `ok`, or the code that refused it —
 * `room-key-grant-missing` (a copy made without a grant), `room-key-grant-invalid` (not signed by an
 * OWNER's key, or for another room, epoch, member or copy), `contact-key-changed` (the granter's
 * pinned key changed and was not confirmed: `e2e.confirmChangedKey` asks, as for deliveries). A copy that is not `ok` is never used to encrypt.
 * The web client (web/features/rooms/e2e/e2e-room-client.ts) and the Node tests run this same code.
 */
export type RoomKeyTrust = { ok: true } | { ok: false; code: string };

export async function roomKeyTrust(
  client: ApiClient,
  e2e: E2eOptions,
  input: { roomUuid: string; me: string; copy: Pick<NonNullable<E2eRoomState['roomKey']>, 'wrappedKey' | 'grant' | 'granter'>; recipient?: string; memberList?: RoomMemberList | null },
): Promise<RoomKeyTrust> {
  const { copy, me, roomUuid } = input;
  // Another member's copy (the OWNER's members table, README section 7 "The members' copies"): the same checks, for her.
  const recipient = input.recipient ?? me;
  const { grant, granter } = copy;
  if (!grant || !granter) return { ok: false, code: 'room-key-grant-missing' };
  // Only an OWNER grants (SPEC §6 manage access): an OWNER of the verified signed member list
  // (shared/transfer/room-member-list.ts); in a room without one yet, the server's word.
  const isOwner = input.memberList ? isListedOwner(input.memberList, granter.userUuid) : granter.role === 'OWNER';
  if (!isOwner) return { ok: false, code: 'room-key-grant-invalid' };
  const listed = granter.keys.find((k) => k.usage === 'signing' && k.keyId === grant.grant.signerKeyId);
  if (!listed) return { ok: false, code: 'room-key-grant-invalid' };
  try {
    let publicKey: string;
    if (granter.userUuid === me) {
      // Her own grant: checked against her own unlocked key, not a pin.
      if (listed.keyId !== e2e.keys.signing.keyId) return { ok: false, code: 'room-key-grant-invalid' };
      publicKey = e2e.keys.signing.publicKey;
    } else {
      publicKey = (await verifiedContactKey(client, e2e, { email: granter.email, userUuid: granter.userUuid, usage: 'signing', keyId: listed.keyId, publicKey: listed.publicKey, ...(listed.retired ? { retired: true } : {}) })).publicKey;
    }
    await e2e.crypto.verifyRoomKeyGrant({ signed: grant, signerPublicKey: publicKey, expected: { roomId: roomUuid, epoch: ROOM_KEY_EPOCH, recipientUserId: recipient, wrapped: copy.wrappedKey, granterUserId: granter.userUuid } });
    return { ok: true };
  } catch (error) {
    return { ok: false, code: (error as { code?: string }).code ?? 'room-key-grant-invalid' };
  }
}
