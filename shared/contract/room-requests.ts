import { z } from 'zod';
import { ROOM_REQUEST_TOKEN_HEADER, tokenHeadersSchema } from './link-token';
import { LanguageSchema } from './user';
import { SecurityLevelSchema } from './deliveries';

/**
 * Data-room requests ("dar", issue 15 §2, SPEC §2 "send delivery … variant for a data room
 * request"): an OWNER or EDITOR of a plain room asks an address for files for one folder. The
 * person sends an ordinary delivery back to the requester with the send page's dar variant; once
 * it is sent, its files are also copied into the folder (server/README "Data-room requests").
 */

/** How long a request's link holds when nothing else is said (days). */
export const ROOM_REQUEST_DEFAULT_DAYS = 14;
export const ROOM_REQUEST_MESSAGE_MAX = 2000;
/**
 * Token calls (info, signup, delivery) per client address in 15 minutes, right or wrong tokens:
 * a person opening a link needs a handful, an office behind one address a few times that;
 * a token guesser needs very many (429 beyond).
 */
export const ROOM_REQUEST_IP_LIMIT = { limit: 60, windowMs: 15 * 60_000 } as const;

export const ROOM_REQUEST_STATES = ['open', 'used', 'expired', 'revoked'] as const;
export type RoomRequestState = (typeof ROOM_REQUEST_STATES)[number];

const Uuid = z.string().uuid();

/** The public calls' credential: the mailed token in the `x-room-request-token` header (shared/contract/link-token.ts). */
export const RoomRequestTokenHeadersSchema = tokenHeadersSchema(ROOM_REQUEST_TOKEN_HEADER);
export const RoomRequestParamsSchema = z.object({ roomUuid: Uuid, requestUuid: Uuid }).strict();

export const CreateRoomRequestBodySchema = z
  .object({
    /** null or omitted: the room's top level. */
    folderUuid: Uuid.nullable().optional(),
    email: z.string().trim().min(1).max(320),
    message: z.string().max(ROOM_REQUEST_MESSAGE_MAX).default(''),
    /** Language of the mail to an unregistered address (a registered one gets the account's). */
    language: LanguageSchema.optional(),
  })
  .strict()
  .meta({ id: 'CreateRoomRequestBody' });
export type CreateRoomRequestBody = z.input<typeof CreateRoomRequestBodySchema>;

export const RoomRequestSchema = z
  .object({
    uuid: z.string(),
    roomUuid: z.string(),
    folderUuid: z.string().nullable(),
    /** The folder's name, or null for the room's top level. */
    folderName: z.string().nullable(),
    email: z.string(),
    message: z.string(),
    /** The address of the member who asked. */
    requestedBy: z.string(),
    /** Issue 32: that member's display name (absent or null: none known; the list shows the address then). */
    requestedByName: z.string().nullable().optional(),
    state: z.enum(ROOM_REQUEST_STATES),
    createdAt: z.number(),
    expiresAt: z.number(),
    usedAt: z.number().nullable(),
    /** How many files of the answering delivery are in the folder now. */
    filesCopied: z.number(),
  })
  .meta({ id: 'RoomRequest' });
export type RoomRequest = z.infer<typeof RoomRequestSchema>;

export const RoomRequestListSchema = z.object({ requests: z.array(RoomRequestSchema) }).meta({ id: 'RoomRequestList' });
export type RoomRequestList = z.infer<typeof RoomRequestListSchema>;

/** What the link shows before anyone signs in (the token is the credential). */
export const RoomRequestInfoSchema = z
  .object({
    requesterName: z.string(),
    requesterEmail: z.string(),
    roomName: z.string(),
    folderName: z.string().nullable(),
    message: z.string(),
    /** The address asked; the delivery must come from its account. */
    email: z.string(),
    /** An account of that address exists (sign in), or not (sign up first). */
    registered: z.boolean(),
    expiresAt: z.number(),
  })
  .meta({ id: 'RoomRequestInfo' });
export type RoomRequestInfo = z.infer<typeof RoomRequestInfoSchema>;

export const RoomRequestSignupBodySchema = z
  .object({
    password: z.string().max(1024),
    firstName: z.string().max(100).optional(),
    lastName: z.string().max(100).optional(),
    language: LanguageSchema.optional(),
  })
  .strict()
  .meta({ id: 'RoomRequestSignupBody' });
export type RoomRequestSignupBody = z.input<typeof RoomRequestSignupBodySchema>;
export const RoomRequestSignupResponseSchema = z.object({ email: z.string() }).meta({ id: 'RoomRequestSignupResponse' });

/** The answering delivery's draft: recipient fixed to the requester; files then go through the draft calls. */
export const RoomRequestDeliveryBodySchema = z
  .object({
    subject: z.string().max(100_000).optional(),
    body: z.string().max(1_000_000).default(''),
    /** Levels 1 and 2 only: the server copies plaintext into the room. */
    securityLevel: SecurityLevelSchema.optional(),
  })
  .strict()
  .meta({ id: 'RoomRequestDeliveryBody' });
export type RoomRequestDeliveryBody = z.input<typeof RoomRequestDeliveryBodySchema>;

export const ROOM_REQUEST_PATHS = {
  requests: (roomUuid: string) => `/rooms/${roomUuid}/requests`,
  request: (roomUuid: string, requestUuid: string) => `/rooms/${roomUuid}/requests/${requestUuid}`,
  /** The public calls: the token in the `x-room-request-token` header, never in the path. */
  info: '/room-requests/by-token',
  signup: '/room-requests/by-token/signup',
  delivery: '/room-requests/by-token/delivery',
} as const;

/**
 * The mailed links (web routes): registered addresses go to the send page's dar variant, others
 * sign up first. The token is in the fragment (`#dar=…`, `#token=…`), never sent to a server;
 * links mailed before issue 28 had it in the query (`?dar=`, `?token=`), and those pages still
 * take it from there (and move it into the fragment). `back` (the web's own) stays in the query.
 */
export const ROOM_REQUEST_WEB_LINKS = {
  send: (token: string, back?: string | null) => `/secumails/send${back ? `?back=${encodeURIComponent(back)}` : ''}#dar=${encodeURIComponent(token)}`,
  signup: (token: string) => `/auth/delivery-signup-dar#token=${encodeURIComponent(token)}`,
} as const;

/**
 * The `back` query value (SPEC §2): where the page that started an action returns afterwards. Only
 * a same-origin relative path starting with a single `/` counts; anything else (absolute URLs,
 * `//host`, `/\host`, control characters) is ignored (null).
 */
export function safeBackPath(value: string | null | undefined): string | null {
  if (!value || value.length > 2000) return null;
  if (!value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return null;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f\\]/.test(value)) return null;
  return value;
}
