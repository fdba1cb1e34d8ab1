import { z } from 'zod';
import { ROOM_ROLES } from './rooms';
import { UserPublicKeysResponseSchema } from './secupass';

/**
 * The signed member list of an E2E room (shared/crypto/room-members.ts; README section 7 "Who is a
 * member: the signed member list"): an OWNER's browser signs every member with role and the key ids
 * she checked; the server stores the latest list and hands it to members, who verify it against the
 * signer's pinned key and flag any member it does not hold.
 */
const Uuid = z.string().uuid();
const KeyId = z.string().min(1).max(128);
export const ROOM_MEMBER_LIST_WIRE_MAX = 5000;

export const SignedRoomMemberListSchema = z
  .object({
    list: z
      .object({
        format: z.literal(1),
        roomId: Uuid,
        version: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER),
        members: z
          .array(z.object({ userId: Uuid, email: z.string().min(1).max(320), role: z.enum(ROOM_ROLES), signingKeyId: KeyId.nullable(), encryptionKeyId: KeyId.nullable() }).strict())
          .min(1)
          .max(ROOM_MEMBER_LIST_WIRE_MAX),
        signerUserId: Uuid,
        signerKeyId: KeyId,
        createdAt: z.string().min(1).max(40),
      })
      .strict(),
    signature: z.string().min(1).max(200),
  })
  .strict()
  .meta({ id: 'SignedRoomMemberList' });
export type SignedRoomMemberListWire = z.infer<typeof SignedRoomMemberListSchema>;

/** PUT …/e2e/member-list (OWNER): the next list; `version` must be the stored one + 1 (1 for the first). */
export const PutRoomMemberListBodySchema = z.object({ signedList: SignedRoomMemberListSchema }).strict().meta({ id: 'PutRoomMemberListBody' });
export type PutRoomMemberListBody = z.infer<typeof PutRoomMemberListBodySchema>;

/**
 * GET …/e2e/member-list (any member): the latest signed list (null: none written yet — a room made
 * before lists were signed; an OWNER's client writes the first) and who the server says signed it,
 * with her live and retired signing keys (the reader pin-checks before verifying).
 */
export const RoomMemberListStateSchema = z
  .object({
    signedList: SignedRoomMemberListSchema.nullable(),
    signer: z.object({ userUuid: z.string(), email: z.string(), keys: UserPublicKeysResponseSchema.shape.keys }).nullable(),
  })
  .meta({ id: 'RoomMemberListState' });
export type RoomMemberListState = z.infer<typeof RoomMemberListStateSchema>;

/**
 * GET …/e2e/member-list?version=N: that earlier (or the latest) list instead of the latest — file
 * metadata names the version it was signed under and the reader checks the signer's role in it
 * (README section 7 "Roles at signing time"); 404 when the server keeps no list of that version.
 */
export const RoomMemberListQuerySchema = z.object({ version: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER).optional() }).strict().meta({ id: 'RoomMemberListQuery' });
export type RoomMemberListQuery = z.infer<typeof RoomMemberListQuerySchema>;

export const ROOM_MEMBER_LIST_PATH = (roomUuid: string) => `/rooms/${roomUuid}/e2e/member-list`;
