import { z } from 'zod';
import { ROOM_ROLES, RoomAccessListSchema } from './rooms';
import { LanguageSchema } from './user';

/**
 * Data-room invitations of addresses without an account (SPEC §2 auth area "dataroom-signup",
 * §8 "Registration: invitation expired or used"; server/README "Room invitations"). Sharing a
 * room or folder with such an address (when the inviter may invite, like deliveries) stores a
 * pending invitation and mails a single-use link; the invitee signs up from it and becomes a
 * member with the invited role.
 */

/** Setting: days an invitation link stays valid (default 14, 1…365). */
export const ROOM_INVITATION_VALID_DAYS_KEY = 'kuvert.rooms.invitationValidDays';
export const ROOM_INVITATION_VALID_DAYS_DEFAULT = 14;
export const ROOM_INVITATION_VALID_DAYS_RANGE = [1, 365] as const;

/**
 * The web page the mailed link opens: the token in the fragment, which the browser never sends to a
 * server (issue 28 §1; a link mailed before with `?token=` still opens, the page moves it there).
 */
export const ROOM_INVITATION_WEB_LINKS = {
  signup: (token: string) => `/auth/dataroom-signup#token=${encodeURIComponent(token)}`,
} as const;

/** SPEC §8 "invitation expired or used": 410 with this class, whichever of the two it was. */
export const ROOM_INVITATION_GONE = 'InvitationExpiredException' as const;

const Uuid = z.string().uuid();

/** A pending invitation as the room's OWNERs see it in the access list. */
export const RoomInvitationSchema = z
  .object({
    uuid: z.string(),
    email: z.string(),
    role: z.enum(ROOM_ROLES),
    /** null: on the room itself; else the folder's uuid. */
    folderUuid: z.string().nullable(),
    invitedBy: z.string(),
    createdAt: z.number().int(),
    expiresAt: z.number().int(),
    /** The link no longer works (the invitation stays listed until revoked). */
    expired: z.boolean(),
  })
  .meta({ id: 'RoomInvitation' });
export type RoomInvitation = z.infer<typeof RoomInvitationSchema>;

export const RoomInvitationListSchema = z.object({ invitations: z.array(RoomInvitationSchema) }).meta({ id: 'RoomInvitationList' });
export type RoomInvitationList = z.infer<typeof RoomInvitationListSchema>;

export const RoomInvitationQuerySchema = z.object({ folderUuid: Uuid.optional() }).strict();
export const RoomInvitationParamsSchema = z.object({ roomUuid: Uuid, invitationUuid: Uuid }).strict();

/** Answer of PUT /rooms/{roomUuid}/access: the access list, plus the invitation when the address had no account. */
export const RoomAccessSetResultSchema = RoomAccessListSchema.extend({ invitation: RoomInvitationSchema.optional() }).meta({ id: 'RoomAccessSetResult' });
export type RoomAccessSetResult = z.infer<typeof RoomAccessSetResultSchema>;

/** The mailed token travels in the body, never in a URL the server logs. */
export const InvitationTokenBodySchema = z.object({ token: z.string().trim().min(20).max(200) }).strict().meta({ id: 'InvitationTokenBody' });
export type InvitationTokenBody = z.input<typeof InvitationTokenBodySchema>;

/** What the signup page shows: the room (its name only when the room is not end-to-end encrypted). */
export const InvitationDetailsSchema = z
  .object({
    email: z.string(),
    role: z.enum(ROOM_ROLES),
    encrypted: z.boolean(),
    /** null for an E2E room: its name is sealed, the page says "encrypted room". */
    roomName: z.string().nullable(),
    inviterName: z.string(),
    expiresAt: z.number().int(),
  })
  .meta({ id: 'RoomInvitationDetails' });
export type InvitationDetails = z.infer<typeof InvitationDetailsSchema>;

export const InvitationSignupBodySchema = z
  .object({
    token: z.string().trim().min(20).max(200),
    password: z.string().max(1024),
    firstName: z.string().max(100).optional(),
    lastName: z.string().max(100).optional(),
    language: LanguageSchema.optional(),
  })
  .strict()
  .meta({ id: 'RoomInvitationSignupBody' });
export type InvitationSignupBody = z.input<typeof InvitationSignupBodySchema>;

/** The new account's address (the web signs in with it) and where the member lands. */
export const InvitationSignupResponseSchema = z
  .object({ email: z.string(), roomUuid: z.string(), folderUuid: z.string().nullable() })
  .meta({ id: 'RoomInvitationSignupResponse' });
export type InvitationSignupResponse = z.infer<typeof InvitationSignupResponseSchema>;
