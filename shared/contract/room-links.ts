import { z } from 'zod';
import { ROOM_LINK_TOKEN_HEADER, tokenHeadersSchema } from './link-token';

/**
 * Public links to one file of a plain data room (issue 15: "public (link) sharing of a plain room's
 * file is possible while an E2E room's is refused with its reason"; server/README "Public links to
 * room files"). An OWNER or EDITOR makes a link with an expiry; whoever holds the URL downloads the
 * file's current content without an account. Issue 32 §2: a link may also carry a password (asked by
 * the landing page, sent in the `x-room-link-password` header), an expiry date chosen on a calendar
 * (`expiresAt`) instead of a number of days, and a download limit (`maxDownloads`).
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

/**
 * The password of a protected link, sent by the landing page with each public call: URI-encoded
 * (`encodeURIComponent`), as a header value carries Latin-1 only. Never in the URL; the log redacts it.
 */
export const ROOM_LINK_PASSWORD_HEADER = 'x-room-link-password';
/** Wrong passwords per link in 15 minutes (then 429 for that link, whoever asks): guessing stays slow. */
export const ROOM_LINK_PASSWORD_LIMIT = { limit: 10, windowMs: 15 * 60_000 } as const;
export const ROOM_LINK_PASSWORD_MIN = 6;
export const ROOM_LINK_PASSWORD_MAX = 200;
/** The highest download limit a link may have. */
export const ROOM_LINK_MAX_DOWNLOADS = 10_000;

/** `usedUp`: its download limit is reached. */
export const ROOM_LINK_STATES = ['active', 'expired', 'revoked', 'usedUp'] as const;
export type RoomLinkState = (typeof ROOM_LINK_STATES)[number];

const Uuid = z.string().uuid();

/** The public calls' credential: the link's token in the `x-room-link-token` header (shared/contract/link-token.ts). */
export const RoomLinkTokenHeadersSchema = tokenHeadersSchema(ROOM_LINK_TOKEN_HEADER).extend({
  /** The link's password, URI-encoded (only for a protected link). */
  [ROOM_LINK_PASSWORD_HEADER]: z.string().min(1).max(3 * 4 * ROOM_LINK_PASSWORD_MAX).optional(),
});
export const RoomLinkParamsSchema = z.object({ roomUuid: Uuid, fileUuid: Uuid, linkUuid: Uuid }).strict();

export const CreateRoomLinkBodySchema = z
  .object({
    /** Days until the link stops working (1 to ROOM_LINK_MAX_DAYS); ignored when `expiresAt` is given. */
    expiresInDays: z.number().int().min(1).max(ROOM_LINK_MAX_DAYS).default(ROOM_LINK_DEFAULT_DAYS),
    /** The moment the link stops working (epoch ms; the calendar's day, end of day in the maker's zone): in the future, at most ROOM_LINK_MAX_DAYS ahead (else 400). */
    expiresAt: z.number().int().positive().optional(),
    /** A password the visitor must enter (stored as its Argon2id hash only). */
    password: z.string().min(ROOM_LINK_PASSWORD_MIN).max(ROOM_LINK_PASSWORD_MAX).optional(),
    /** Complete downloads allowed through the link; then it is used up (410). None: no limit. */
    maxDownloads: z.number().int().min(1).max(ROOM_LINK_MAX_DOWNLOADS).optional(),
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
    /** Their display name (issue 32 "names instead of addresses"); null when none is known. */
    createdByName: z.string().nullable().optional(),
    createdAt: z.number(),
    expiresAt: z.number(),
    revokedAt: z.number().nullable(),
    state: z.enum(ROOM_LINK_STATES),
    /** Complete downloads through the link. */
    downloads: z.number(),
    /** The download limit, null: none. */
    maxDownloads: z.number().nullable(),
    /** Whether the visitor must enter a password. */
    passwordProtected: z.boolean(),
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
  .object({
    name: z.string(),
    size: z.number(),
    mimeType: z.string(),
    expiresAt: z.number(),
    /** Downloads left before the link is used up; null: no limit. */
    downloadsLeft: z.number().nullable(),
  })
  .meta({ id: 'RoomLinkInfo' });
export type RoomLinkInfo = z.infer<typeof RoomLinkInfoSchema>;

export const ROOM_LINK_PATHS = {
  links: (roomUuid: string, fileUuid: string) => `/rooms/${roomUuid}/files/${fileUuid}/links`,
  link: (roomUuid: string, fileUuid: string, linkUuid: string) => `/rooms/${roomUuid}/files/${fileUuid}/links/${linkUuid}`,
  /** The room-wide overview (OWNER). */
  overview: (roomUuid: string) => `/rooms/${roomUuid}/links`,
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

/**
 * The room-wide overview of a plain room's public links (issue 32: "a room-wide overview of all
 * links"): file links, folder links and upload ("drop") links of every live item, newest first, for
 * the room's OWNER (server/README "The room's links"). Each row names its target (its name and the
 * folders above it) and how to revoke it (the file's or the folder's own revoke call).
 */
export const ROOM_LINK_OVERVIEW_KINDS = ['file', 'folder', 'drop'] as const;
export type RoomLinkOverviewKind = (typeof ROOM_LINK_OVERVIEW_KINDS)[number];

export const RoomLinkOverviewEntrySchema = RoomLinkSchema.omit({ fileUuid: true })
  .extend({
    /** `file`: a file's download link; `folder`: a folder's listing link; `drop`: a folder's upload-only link. */
    kind: z.enum(ROOM_LINK_OVERVIEW_KINDS),
    /** The linked file (kind `file`) or folder (`folder`, `drop`). */
    targetUuid: z.string(),
    targetName: z.string(),
    /** The folders from the room's top level down to the target's parent (top first). */
    path: z.array(z.object({ uuid: z.string(), name: z.string() })),
    /** Files committed through an upload link (0 for the other kinds). */
    uploads: z.number(),
  })
  .meta({ id: 'RoomLinkOverviewEntry' });
export type RoomLinkOverviewEntry = z.infer<typeof RoomLinkOverviewEntrySchema>;

export const RoomLinkOverviewSchema = z.object({ links: z.array(RoomLinkOverviewEntrySchema) }).meta({ id: 'RoomLinkOverview' });
export type RoomLinkOverview = z.infer<typeof RoomLinkOverviewSchema>;
