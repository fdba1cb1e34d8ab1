import { z } from 'zod';
import { ROOM_LINK_TOKEN_HEADER, tokenHeadersSchema } from './link-token';

/**
 * Public links to one file of a plain data room (issue 15: "public (link) sharing of a plain room's
 * file is possible while an E2E room's is refused with its reason"; server/README "Public links to
 * room files"). An OWNER or EDITOR makes a link with an expiry; whoever holds the URL downloads the
 * file's current content without an account. SPEC names no password for such links: none is built.
 */

/** Expiry when none is asked for, and the longest allowed (days). */
export const ROOM_LINK_DEFAULT_DAYS = 7;
export const ROOM_LINK_MAX_DAYS = 90;
/**
 * Public link calls (info, download) per client address in 15 minutes, right or wrong tokens: a
 * recipient needs a few (a resumed download a few more); a token guesser very many (429 beyond).
 */
export const ROOM_LINK_IP_LIMIT = { limit: 120, windowMs: 15 * 60_000 } as const;

/** The actor the room activity log names for a download through a link (the web shows its own text). */
export const ROOM_LINK_ACTOR = 'public link';

export const ROOM_LINK_STATES = ['active', 'expired', 'revoked'] as const;
export type RoomLinkState = (typeof ROOM_LINK_STATES)[number];

const Uuid = z.string().uuid();

/** The public calls' credential: the link's token in the `x-room-link-token` header (shared/contract/link-token.ts). */
export const RoomLinkTokenHeadersSchema = tokenHeadersSchema(ROOM_LINK_TOKEN_HEADER);
export const RoomLinkParamsSchema = z.object({ roomUuid: Uuid, fileUuid: Uuid, linkUuid: Uuid }).strict();

export const CreateRoomLinkBodySchema = z
  .object({
    /** Days until the link stops working (1 to ROOM_LINK_MAX_DAYS). */
    expiresInDays: z.number().int().min(1).max(ROOM_LINK_MAX_DAYS).default(ROOM_LINK_DEFAULT_DAYS),
  })
  .strict()
  .meta({ id: 'CreateRoomLinkBody' });
export type CreateRoomLinkBody = z.input<typeof CreateRoomLinkBodySchema>;

export const RoomLinkSchema = z
  .object({
    uuid: z.string(),
    fileUuid: z.string(),
    /** Email of whoever made it (empty when the account is gone). */
    createdBy: z.string(),
    createdAt: z.number(),
    expiresAt: z.number(),
    revokedAt: z.number().nullable(),
    state: z.enum(ROOM_LINK_STATES),
    /** Complete downloads through the link. */
    downloads: z.number(),
  })
  .meta({ id: 'RoomLink' });
export type RoomLink = z.infer<typeof RoomLinkSchema>;

/** The answer of the creation: the only time the URL (with its token) is seen; the server keeps its SHA-256. */
export const CreatedRoomLinkSchema = RoomLinkSchema.extend({ url: z.string() }).meta({ id: 'CreatedRoomLink' });
export type CreatedRoomLink = z.infer<typeof CreatedRoomLinkSchema>;

export const RoomLinkListSchema = z.object({ links: z.array(RoomLinkSchema) }).meta({ id: 'RoomLinkList' });
export type RoomLinkList = z.infer<typeof RoomLinkListSchema>;

/** What the link holder may know before downloading. */
export const RoomLinkInfoSchema = z
  .object({ name: z.string(), size: z.number(), mimeType: z.string(), expiresAt: z.number() })
  .meta({ id: 'RoomLinkInfo' });
export type RoomLinkInfo = z.infer<typeof RoomLinkInfoSchema>;

export const ROOM_LINK_PATHS = {
  links: (roomUuid: string, fileUuid: string) => `/rooms/${roomUuid}/files/${fileUuid}/links`,
  link: (roomUuid: string, fileUuid: string, linkUuid: string) => `/rooms/${roomUuid}/files/${fileUuid}/links/${linkUuid}`,
  /** The public calls: the token in the `x-room-link-token` header, never in the path. */
  info: '/room-links/by-token',
  content: '/room-links/by-token/content',
} as const;

/** The web's landing page of a link; links handed out before issue 28 had the token as a path segment after it. */
export const ROOM_LINK_PAGE = '/room-link';

/**
 * The web's public landing page of a link (no sign-in): name, size, expiry and a Download button
 * (the content call), or a message page saying why the link does not work (expired, revoked, …).
 * The token is in the fragment: the browser never sends it to a server.
 */
export const roomLinkPagePath = (token: string) => `${ROOM_LINK_PAGE}#token=${encodeURIComponent(token)}`;

/** The URL handed out: the landing page (the content call stays public: the page's Download button). */
export const roomLinkUrl = (publicUrl: string, token: string) => `${publicUrl}${roomLinkPagePath(token)}`;
