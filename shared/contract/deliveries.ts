import { z } from 'zod';
import { SECURITY_LEVELS } from './constants';
import { AccessDescriptorSchema, PublicKeySchema, SecuPassStateSchema, WrappedFileKeySchema } from './secupass';
import { LanguageSchema } from './user';
import { MAX_NAME_LENGTH, NAME_PROBLEMS, nameProblem, normaliseName, type NameProblem } from './names';

/**
 * Deliveries on the wire (SPEC §1, §3, §4, §5, §8; DESIGN §2–§5): our REST design under
 * `/api/2`. Levels 1 (secure link) and 2 (login) are served now; levels 3/4 (E2E) reuse
 * the same upload protocol with per-file `encrypted` parts and add access descriptors.
 *
 * | call | who | what |
 * |---|---|---|
 * | POST   /deliveries | ROLE_SENDER | create a draft (recipients, subject, body, validity, level, language) → 201 `DeliveryDetail`; the §5 rules on these fields are checked here and again at send |
 * | PATCH  /deliveries/{deliveryUuid} | ROLE_SENDER, the draft's sender | changes a draft's fields (same body as create, every field optional) → `DeliveryDetail`; same checks |
 * | POST   /deliveries/{deliveryUuid}/files | ROLE_SENDER, the draft's sender | announce a file (name, size, MIME type) → 201 `DeliveryUploadFile` with `fileId`, `partSize`, `partCount`; name, size, type, per-account limit and global quota are checked here, before any byte is accepted |
 * | DELETE /deliveries/{deliveryUuid}/files/{fileId} | ROLE_SENDER, the draft's sender | drop a file from a draft (204) |
 * | PUT    /deliveries/{deliveryUuid}/files/{fileId}/parts/{index} | ROLE_SENDER, the draft's sender | body `application/octet-stream` (exactly the part's size), header `x-content-sha256` (hex); idempotent: same index + same hash → 200 without reading again; body not matching the hash → 400 |
 * | GET    /deliveries/{deliveryUuid}/files/{fileId}/parts | ROLE_SENDER, the draft's sender | parts received so far (resume); levels 3/4 also `ownKey`, the sender's own wrapped copy of the file key (resume without re-encrypting) |
 * | PUT    /deliveries/{deliveryUuid}/files/{fileId}/own-key | ROLE_SENDER, the draft's sender | levels 3/4: the file key wrapped (HPKE) to the sender's own live encryption key, kept on the draft so a reload resumes with the same key (204) |
 * | POST   /deliveries/{deliveryUuid}/files/{fileId}/commit | ROLE_SENDER, the draft's sender | every part present and sizes add up → the file is complete (only committed files are ever downloadable) |
 * | POST   /deliveries/{deliveryUuid}/send | ROLE_SENDER, the draft's sender | checks every §5 rule, status `sent`, mails each recipient (level 1: link with its token; level 2: link to the inbox) |
 * | GET    /deliveries/inbox?page&pageSize&cursor&q&filter | signed in | deliveries sent to the caller's address, newest first (sent time, then id); `filter=notDownloaded`; paging below |
 * | GET    /deliveries/sent?page&pageSize&cursor&q&filter | signed in | the caller's sent deliveries, newest first (sent time, then id); `filter=notDownloaded`: some recipient has not downloaded; paging below |
 * | GET    /deliveries/{deliveryUuid}[?token] | public: the sender, a recipient, or (level 1) the holder of a recipient's token | one delivery; drafts only to their sender |
 * | DELETE /deliveries/{deliveryUuid} | signed in: the sender (deleted for everyone) or a recipient (gone from their inbox) | 204 |
 * | GET    /deliveries/{deliveryUuid}/files/{fileId}/content[?token] | public, same as GET one | the bytes; `Range: bytes=…` → 206 + `Content-Range`; unsatisfiable or malformed → 416; `Accept-Ranges: bytes` always; under virus review or blocked → 403 `FileNotAllowedException` (`metadata.reviewState`, `reason`) |
 * | POST   /deliveries/{deliveryUuid}/resend-notification | signed in: the sender | mails the recipients again (or the one named); level 1 gets a fresh token (the old link stops working: tokens are only stored hashed) |
 * | GET    /deliveries/{deliveryUuid}/activity | signed in: the sender (all), a recipient (their own and the delivery's) | activity log, oldest first |
 * | GET    /deliveries/{deliveryUuid}/recipient-keys | ROLE_SENDER, the draft's sender | levels 3/4: each recipient's user id, SecuPass state and live public keys (to wrap file keys to); its addresses count against the recipient-status budget (429) |
 * | PUT    /deliveries/{deliveryUuid}/e2e | ROLE_SENDER, the draft's sender | levels 3/4: the encrypted signed manifest and the access descriptors (wrapped file keys) for the sender and each recipient key |
 * | GET    /deliveries/{deliveryUuid}/e2e | signed in: the sender or a recipient | the encrypted manifest, the sender's user id and the caller's OWN live descriptors; none → 404 AccessDescriptorNotFoundException (`metadata.reason`: passphraseNeeded / releasePending) |
 * | GET    /deliveries/release | ROLE_SENDER | recipients of the caller's sent level 3/4 deliveries who have a key now but no descriptor: release needed |
 * | POST   /deliveries/{deliveryUuid}/release | ROLE_SENDER, the delivery's sender | descriptors re-wrapped to one recipient's new key → the recipient is mailed |
 * | POST   /deliveries/recipient-status | ROLE_SENDER; a reply-only account (ROLE_SENDER_EXTERNAL) only about the people it may reply to (403 `RecipientNotAllowedException`, `reason: replyOnly`) | the send page's chip warnings (SPEC §5): for up to 50 addresses, whether each is a registered user and has an active SecuPass — nothing else (with `withKeys`, levels 3/4: also the user id and live encryption key of an address with an active SecuPass, as recipient-keys tells about a draft, for the verified badges); rate limited per sender and by a budget of distinct addresses per account and hour shared with recipient-keys (429 `RateLimitExceededException`, `reason: lookupBudget` for the budget) |
 *
 * Lists page by cursor: each answer's `nextCursor` (null on the last page) passed back as
 * `cursor` continues right after its last row, whatever arrived in between (no duplicates, no
 * gaps); `page` is then only echoed. Without a cursor, `page` skips `(page - 1) * pageSize` rows
 * (cheap for the first pages only). `total` counts at most `LIST_TOTAL_CAP` rows (with `q`:
 * `SEARCH_TOTAL_CAP`): when more match, `total` is the cap and `totalCapped` is true ("1 000+"),
 * so a page costs the same in an inbox of 100 000 as of 1 000. A cursor that is not one of ours
 * → 400 ValidationException.
 *
 * Tokens (level 1) travel as the `token` query parameter or the `x-delivery-token` header;
 * the mail link carries it in the URL fragment (`#token=`) so it never reaches a server log
 * or a Referer header. Signed-in callers need no token.
 *
 * Level-1 email proof: the token alone does not open a level-1 delivery. The email prompt
 * (`POST /shares/{shareUuid}/email-check`, shared/contract/external.ts) answers a level-1 share with
 * an HttpOnly cookie `KUVERT_SHARE_PROOF` (SameSite=Strict, Path `/api/2/deliveries/{deliveryUuid}`,
 * valid `SHARE_PROOF_TTL_MS`) bound to that one share; `GET /deliveries/{deliveryUuid}` and its
 * `…/content` need token AND proof, unless the caller is the sender or the signed-in recipient.
 * A valid token without a live proof → 403 `AccessDeniedException` with
 * `metadata.reason: emailConfirmationRequired` (the client goes back to the email prompt).
 * Only the proof's SHA-256 is stored; a proof of one share never opens another.
 *
 * ROLE_SENDER above also admits ROLE_SENDER_EXTERNAL (delivery-signup accounts), who may only reply:
 * the server refuses other recipients (RecipientNotAllowedException `reason: replyOnly`). Unlicensed
 * senders, invitations and sender groups: shared/contract/sender-groups.ts and server/README.md "Senders".
 *
 * Errors: the backend error object with the §8 class in `error` and the figures in `metadata`
 * (see the server's README for the list).
 */
export const DELIVERY_PATHS = {
  create: '/deliveries',
  inbox: '/deliveries/inbox',
  sent: '/deliveries/sent',
  one: (deliveryUuid: string) => `/deliveries/${encodeURIComponent(deliveryUuid)}`,
  oneRoute: '/deliveries/:deliveryUuid',
  files: (deliveryUuid: string) => `/deliveries/${encodeURIComponent(deliveryUuid)}/files`,
  filesRoute: '/deliveries/:deliveryUuid/files',
  file: (deliveryUuid: string, fileId: string) => `/deliveries/${encodeURIComponent(deliveryUuid)}/files/${encodeURIComponent(fileId)}`,
  fileRoute: '/deliveries/:deliveryUuid/files/:fileId',
  part: (deliveryUuid: string, fileId: string, index: number) =>
    `/deliveries/${encodeURIComponent(deliveryUuid)}/files/${encodeURIComponent(fileId)}/parts/${index}`,
  partRoute: '/deliveries/:deliveryUuid/files/:fileId/parts/:index',
  parts: (deliveryUuid: string, fileId: string) => `/deliveries/${encodeURIComponent(deliveryUuid)}/files/${encodeURIComponent(fileId)}/parts`,
  partsRoute: '/deliveries/:deliveryUuid/files/:fileId/parts',
  ownKey: (deliveryUuid: string, fileId: string) => `/deliveries/${encodeURIComponent(deliveryUuid)}/files/${encodeURIComponent(fileId)}/own-key`,
  ownKeyRoute: '/deliveries/:deliveryUuid/files/:fileId/own-key',
  commit: (deliveryUuid: string, fileId: string) => `/deliveries/${encodeURIComponent(deliveryUuid)}/files/${encodeURIComponent(fileId)}/commit`,
  commitRoute: '/deliveries/:deliveryUuid/files/:fileId/commit',
  content: (deliveryUuid: string, fileId: string) => `/deliveries/${encodeURIComponent(deliveryUuid)}/files/${encodeURIComponent(fileId)}/content`,
  contentRoute: '/deliveries/:deliveryUuid/files/:fileId/content',
  send: (deliveryUuid: string) => `/deliveries/${encodeURIComponent(deliveryUuid)}/send`,
  sendRoute: '/deliveries/:deliveryUuid/send',
  resend: (deliveryUuid: string) => `/deliveries/${encodeURIComponent(deliveryUuid)}/resend-notification`,
  resendRoute: '/deliveries/:deliveryUuid/resend-notification',
  activity: (deliveryUuid: string) => `/deliveries/${encodeURIComponent(deliveryUuid)}/activity`,
  activityRoute: '/deliveries/:deliveryUuid/activity',
  recipientKeys: (deliveryUuid: string) => `/deliveries/${encodeURIComponent(deliveryUuid)}/recipient-keys`,
  recipientKeysRoute: '/deliveries/:deliveryUuid/recipient-keys',
  e2e: (deliveryUuid: string) => `/deliveries/${encodeURIComponent(deliveryUuid)}/e2e`,
  e2eRoute: '/deliveries/:deliveryUuid/e2e',
  releaseList: '/deliveries/release',
  release: (deliveryUuid: string) => `/deliveries/${encodeURIComponent(deliveryUuid)}/release`,
  releaseRoute: '/deliveries/:deliveryUuid/release',
  recipientStatus: '/deliveries/recipient-status',
} as const;

/**
 * Web-client links the notification mails carry (relative to the public URL). Level 1: the
 * download page with the share and the token in the fragment (`#token=…`: never sent to a
 * server, never in a Referer); level 2: the inbox entry (sign-in required).
 */
export const DELIVERY_WEB_LINKS = {
  download: (language: string, deliveryUuid: string, shareUuid: string, token: string) =>
    `/secumails/${language}/download?deliveryUuid=${encodeURIComponent(deliveryUuid)}&shareUuid=${encodeURIComponent(shareUuid)}#token=${encodeURIComponent(token)}`,
  inbox: (deliveryUuid: string) => `/secumails/inbox/${encodeURIComponent(deliveryUuid)}`,
  outbox: '/secumails/outbox',
  /** Release deliveries (SPEC §2, under /secumails/:locale?). */
  release: (language: string) => `/secumails/${language}/release`,
} as const;

/** Header with the SHA-256 (lower-case hex) of a part's body. */
export const CONTENT_SHA256_HEADER = 'x-content-sha256';
/** Header alternative to the `token` query parameter for level-1 links. */
export const DELIVERY_TOKEN_HEADER = 'x-delivery-token';
/** The level-1 email prompt's proof cookie (see the table above). */
export const SHARE_PROOF_COOKIE = 'KUVERT_SHARE_PROOF';
/** How long a confirmed address opens a level-1 delivery: a working session's download, not a standing pass. */
export const SHARE_PROOF_TTL_MS = 4 * 60 * 60_000;
/** `metadata.reason` of the 403 for a valid level-1 token without the email prompt's proof. */
export const EMAIL_CONFIRMATION_REQUIRED = 'emailConfirmationRequired';

/**
 * Limits of the §5 rules. Each is a named constant with its reason; the server answers
 * MaxSubjectLengthException / MaxBodyLengthException with `{ maxLength, length }`.
 */
/** A subject is one line in a mail client; 255 keeps it inside any header fold and any list column. */
export const MAX_SUBJECT_LENGTH = 255;
/**
 * A message is a letter, not a document (documents travel as files). 100 000 characters
 * is ~40 pages and stays far below the 1 MiB JSON body limit even at 4 bytes a character.
 */
export const MAX_BODY_LENGTH = 100_000;
/** One delivery to more people than this is a mailing, not a delivery; also bounds the mail fan-out of one request. */
export const MAX_RECIPIENTS = 100;
/** More files than this are an archive: zip them. Also bounds the file list one delivery view loads. */
export const MAX_FILES_PER_DELIVERY = 500;
// The file-name rule is the product's one name rule (names.ts); these are its names here.
export const MAX_FILE_NAME_LENGTH = MAX_NAME_LENGTH;
export const FILE_NAME_PROBLEMS = NAME_PROBLEMS;
export type FileNameProblem = NameProblem;
export const normaliseFileName = normaliseName;
export const fileNameProblem = nameProblem;

export function isValidFileName(rawName: string): boolean {
  return fileNameProblem(rawName) === undefined;
}

/**
 * A MIME type as `type/subtype` of RFC 9110 token characters, optionally with parameters
 * (`; name=value`, the value a token or a quoted string without control characters). Anything
 * else (a CR/LF above all, which would break every later download's headers) is refused.
 */
const MIME_TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
const MIME_PARAMETER = `[ \\t]*;[ \\t]*${MIME_TOKEN}=(?:${MIME_TOKEN}|"(?:[\\t\\x20-\\x21\\x23-\\x5b\\x5d-\\x7e]|\\\\[\\t\\x20-\\x7e])*")`;
export const MIME_TYPE_PATTERN = new RegExp(`^${MIME_TOKEN}/${MIME_TOKEN}(?:${MIME_PARAMETER})*$`);

export function isValidMimeType(value: string): boolean {
  return value.length <= 255 && MIME_TYPE_PATTERN.test(value);
}

/** Validity placeholder of the send form (SPEC §9). */
export const DEFAULT_VALIDITY_DAYS = 90;

export const SecurityLevelSchema = z
  .union([z.literal(SECURITY_LEVELS.LEVEL_1), z.literal(SECURITY_LEVELS.LEVEL_2), z.literal(SECURITY_LEVELS.LEVEL_3), z.literal(SECURITY_LEVELS.LEVEL_4)])
  .meta({ id: 'SecurityLevel', description: 'LEVEL_1 0 (secure link), LEVEL_2 10 (login), LEVEL_3 20 (E2E files), LEVEL_4 30 (E2E files and message)' });
export type SecurityLevel = z.infer<typeof SecurityLevelSchema>;

/** Settings (admin, `PUT /admin/settings`) of the delivery rules; defaults in the server. */
export const DELIVERY_SETTING_KEYS = {
  /** Comma-separated extensions (without dot, case-insensitive) refused with FileNotAllowedException. */
  blockedExtensions: 'kuvert.delivery.blockedExtensions',
  /** Comma-separated MIME types (case-insensitive; `type/*` allowed) refused with FileNotAllowedException. */
  blockedMimeTypes: 'kuvert.delivery.blockedMimeTypes',
  /** Bytes: total attachment size of one delivery an account may send (MaxUploadSizeExceededException). */
  maxUploadSize: 'kuvert.delivery.maxUploadSize',
  /** Bytes the blob store may hold in all (GlobalQuotaReachedException); 0 = limited by the disk only. */
  globalQuota: 'kuvert.storage.globalQuota',
  /**
   * Comma-separated banned recipients (RecipientNotAllowedException): whole addresses
   * (`x@example.org`) or domains (`@example.org`), case-insensitive. Administrators ban (SPEC §6).
   */
  bannedRecipients: 'kuvert.delivery.bannedRecipients',
  /**
   * SPEC §3 "users may be forbidden from creating new users when sharing": when true, sending to an
   * unregistered address (which invites it) needs ROLE_SHARES_CAN_INVITE (InviteUserToShareException). Default false.
   */
  inviteRequiresRole: 'kuvert.delivery.invite.requireRole',
} as const;

/**
 * A list's `total` counts at most this many rows (`totalCapped` says there are more). Counting
 * costs a walk over the rows, so the cap bounds every page's work; past a thousand an exact
 * figure helps nobody (paging is by cursor).
 */
export const LIST_TOTAL_CAP = 1_000;
/** The cap with a search `q`: each counted row is checked against the text, not just an index entry. */
export const SEARCH_TOTAL_CAP = 100;

const PageQueryBase = {
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(200).default(25),
  /** Opaque: a previous answer's `nextCursor`; the page then starts right after that answer's last row. */
  cursor: z.string().min(1).max(100).optional(),
  /** Case-insensitive search in subject and the other party's address or name. */
  q: z.string().max(200).optional(),
  filter: z.enum(['all', 'notDownloaded']).default('all'),
};
export const DeliveryListQuerySchema = z.object(PageQueryBase).strict().meta({ id: 'DeliveryListQuery' });
export type DeliveryListQuery = z.input<typeof DeliveryListQuerySchema>;

/**
 * POST /deliveries. Shapes are loose on purpose (generous caps): the §5 rules are answered
 * by the server with their own classes (MaxSubjectLengthException, …), not as schema issues.
 */
export const CreateDeliveryBodySchema = z
  .object({
    recipients: z.array(z.string().max(1000)).max(1000),
    additionalRecipients: z.array(z.string().max(1000)).max(1000).default([]),
    subject: z.string().max(100_000),
    body: z.string().max(1_000_000).default(''),
    /** Days until expiry; omitted = the default (90 within the bounds); null = no expiry (only when cleanup is off). */
    validityDays: z.number().int().min(0).max(100_000).nullable().optional(),
    /** Omitted = the minimal allowed level (SPEC §4). */
    securityLevel: SecurityLevelSchema.optional(),
    /** Language of the notification mails to unregistered recipients (registered ones get theirs). */
    language: LanguageSchema.optional(),
  })
  .strict()
  .meta({ id: 'CreateDeliveryBody' });
export type CreateDeliveryBody = z.input<typeof CreateDeliveryBodySchema>;

/** PATCH /deliveries/{deliveryUuid}: a draft's fields, each optional; the result is checked as a whole. */
export const UpdateDeliveryBodySchema = z
  .object({
    recipients: z.array(z.string().max(1000)).max(1000).optional(),
    additionalRecipients: z.array(z.string().max(1000)).max(1000).optional(),
    subject: z.string().max(100_000).optional(),
    body: z.string().max(1_000_000).optional(),
    validityDays: z.number().int().min(0).max(100_000).nullable().optional(),
    securityLevel: SecurityLevelSchema.optional(),
    language: LanguageSchema.optional(),
  })
  .strict()
  .meta({ id: 'UpdateDeliveryBody' });
export type UpdateDeliveryBody = z.input<typeof UpdateDeliveryBodySchema>;

// ---------------------------------------------------------------------------------------
// Levels 3/4 (DESIGN §3, §4). The server never sees a key or a plaintext byte of an E2E file.
// ---------------------------------------------------------------------------------------

/** shared/crypto stream format: header bytes (magic ‖ version ‖ alg ‖ u32 recordSize ‖ salt ‖ nonce prefix). */
export const E2E_STREAM_HEADER_BYTES = 49;
/** AES-GCM tag after every record. */
export const E2E_RECORD_TAG_BYTES = 16;
/** DESIGN §4: an upload part is 8 whole records. */
export const E2E_RECORDS_PER_PART = 8;
/**
 * Largest record size the server takes for a delivery file: the DESIGN §3 record (512 KiB),
 * so a part stays ~4 MiB whatever the client. The stream format itself allows up to 16 MiB.
 */
export const E2E_MAX_RECORD_SIZE = 512 * 1024;
/** Smallest record size the stream format accepts (tests use small records to get many parts). */
export const E2E_MIN_RECORD_SIZE = 16;
/** Access descriptor `fileId` of the manifest key (the manifest is encrypted like a file). */
export const E2E_MANIFEST_FILE_ID = 'manifest';

/**
 * The part layout of an E2E file: part 0 is the 49-byte header plus 8 records, every later part
 * 8 records, so every part boundary is a record boundary (parts line up with the stream format).
 */
export function e2ePartLayout(recordSize: number): { partSize: number; leadingBytes: number } {
  return { partSize: E2E_RECORDS_PER_PART * (recordSize + E2E_RECORD_TAG_BYTES), leadingBytes: E2E_STREAM_HEADER_BYTES };
}

/**
 * Plaintext length of a stream of `ciphertextSize` bytes with `recordSize` records, or null
 * when no plaintext has that ciphertext size (the inverse of shared/crypto `ciphertextLength`).
 */
export function e2ePlaintextSize(ciphertextSize: number, recordSize: number): number | null {
  const body = ciphertextSize - E2E_STREAM_HEADER_BYTES;
  if (body < E2E_RECORD_TAG_BYTES) return null;
  const records = Math.ceil(body / (recordSize + E2E_RECORD_TAG_BYTES));
  const plain = body - records * E2E_RECORD_TAG_BYTES;
  const expectedRecords = plain === 0 ? 1 : Math.ceil(plain / recordSize);
  return expectedRecords === records && plain >= 0 ? plain : null;
}

/** Parts of a file: `leadingBytes` (0 for plain files) ride in part 0 on top of `partSize`. */
export function partCountOf(size: number, partSize: number, leadingBytes = 0): number {
  return Math.max(1, Math.ceil(Math.max(0, size - leadingBytes) / partSize));
}

/** Byte range `[start, end)` of part `index`; every part but the last is full. */
export function partBounds(file: { size: number; partSize: number; leadingBytes?: number }, index: number): { start: number; end: number } {
  const lead = file.leadingBytes ?? 0;
  const start = index === 0 ? 0 : lead + index * file.partSize;
  return { start, end: Math.min(file.size, lead + (index + 1) * file.partSize) };
}

export const FileEncryptionSchema = z
  .object({
    /** Plaintext bytes per record (shared/crypto stream header); the part size follows from it. */
    recordSize: z.number().int().min(E2E_MIN_RECORD_SIZE).max(E2E_MAX_RECORD_SIZE),
    /** base64url SHA-256 of the 49-byte stream header (also in the signed manifest). */
    headerSha256: z.string().regex(/^[A-Za-z0-9_-]{43}$/),
  })
  .strict()
  .meta({ id: 'FileEncryption' });

export const AddFileBodySchema = z
  .object({
    name: z.string().max(10_000),
    /** Bytes on the wire: for an E2E file the ciphertext size (header, records, tags). */
    size: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
    mimeType: z.string().max(255).default('application/octet-stream'),
    /** Levels 3/4 (required there, refused below): the bytes are the E2E stream format. */
    encryption: FileEncryptionSchema.optional(),
  })
  .strict()
  .meta({ id: 'AddFileBody' });
export type AddFileBody = z.input<typeof AddFileBodySchema>;

export const FileStatusSchema = z.enum(['uploading', 'committed']);
/**
 * SPEC §4 virus scan state of one file: `notScanned` (scanning off, levels 3/4, a draft),
 * `scanning` (queued or streaming to clamd), `clean`, `virusDetected`, `error` (the scanner
 * failed after every retry: the delivery is blocked, never treated as clean).
 */
export const ScanStateSchema = z.enum(['notScanned', 'scanning', 'clean', 'virusDetected', 'error']).meta({ id: 'ScanState' });
export type ScanState = z.infer<typeof ScanStateSchema>;

export const DeliveryFileSchema = z
  .object({
    fileId: z.string(),
    name: z.string(),
    size: z.number().int(),
    mimeType: z.string(),
    status: FileStatusSchema,
    /** Levels 3/4: the parts are the E2E stream format (DESIGN §3); the server cannot read them. */
    encrypted: z.boolean(),
    scanState: ScanStateSchema,
  })
  .meta({ id: 'DeliveryFile' });
export type DeliveryFile = z.infer<typeof DeliveryFileSchema>;

export const DeliveryUploadFileSchema = DeliveryFileSchema.extend({
  /** Bytes per part; every part but the last has exactly this size (plus `leadingBytes` for part 0). */
  partSize: z.number().int().positive(),
  partCount: z.number().int().positive(),
  /** E2E files: part 0 also carries the stream header (see `partBounds`); 0 or absent otherwise. */
  leadingBytes: z.number().int().nonnegative().optional(),
}).meta({ id: 'DeliveryUploadFile' });
export type DeliveryUploadFile = z.infer<typeof DeliveryUploadFileSchema>;

export const PartSchema = z
  .object({ index: z.number().int().nonnegative(), size: z.number().int().nonnegative(), sha256: z.string() })
  .meta({ id: 'DeliveryFilePart' });
export type Part = z.infer<typeof PartSchema>;

/** Levels 3/4: the file key wrapped to the sender's own key (PUT …/own-key; the sender's access descriptor of the file). */
export const OwnFileKeySchema = z
  .object({
    recipientKeyId: z.string().min(1).max(128),
    wrappedKey: WrappedFileKeySchema,
  })
  .strict()
  .meta({ id: 'OwnFileKey' });
export type OwnFileKey = z.infer<typeof OwnFileKeySchema>;

export const PartsResponseSchema = z
  .object({
    fileId: z.string(),
    partSize: z.number().int(),
    partCount: z.number().int(),
    leadingBytes: z.number().int().optional(),
    status: FileStatusSchema,
    parts: z.array(PartSchema),
    /** Levels 3/4: the sender's own wrapped copy of the file key, when one is stored. */
    ownKey: OwnFileKeySchema.optional(),
  })
  .meta({ id: 'DeliveryFileParts' });
export type PartsResponse = z.infer<typeof PartsResponseSchema>;

/** SPEC §4: valid, expiring soon, expired, permanently available. */
export const TimeStateSchema = z.enum(['valid', 'expiringSoon', 'expired', 'permanent']);
export type TimeState = z.infer<typeof TimeStateSchema>;
/**
 * SPEC §4 review states. `notReviewed`: no scan applies (scanning off, levels 3/4, a draft, no
 * files); `inProgress`: levels 1/2 after send while clamd checks the files (no mail yet);
 * `clean`: downloadable, recipients mailed. Blocked (attachments never served):
 * `blockedVirus` (clamd found something), `blockedMime` (the content is a forbidden type its
 * name and declared type hid), `blockedReviewerFailed` ("scan failed": clamd down or timing
 * out after every retry), `blockedOther` (the server could not read the files).
 */
export const ReviewStateSchema = z
  .enum(['notReviewed', 'inProgress', 'clean', 'blockedVirus', 'blockedMime', 'blockedReviewerFailed', 'blockedOther'])
  .meta({ id: 'ReviewState' });
export type ReviewState = z.infer<typeof ReviewStateSchema>;
export const DeliveryStatusSchema = z.enum(['draft', 'sent', 'deleted']);

export const PartySchema = z.object({ email: z.string(), name: z.string() }).meta({ id: 'DeliveryParty' });

export const DeliveryRecipientSchema = z
  .object({
    shareUuid: z.string(),
    email: z.string(),
    kind: z.enum(['recipient', 'additional']),
    /** A user with this address exists. */
    registered: z.boolean(),
    /** Epoch ms of the first complete download, or null. */
    downloadedAt: z.number().nullable(),
    /** Epoch ms the message was first decrypted (level 4: when the recipient first fetched its keys, GET …/e2e), or null. */
    decryptedAt: z.number().nullable(),
    notifiedAt: z.number().nullable(),
    /** Levels 3/4, sender's view: the recipient has no file-key copy yet (no passphrase, or a reset): release needed. */
    releasePending: z.boolean().optional(),
    /**
     * Sender's view: an unregistered recipient must sign up with an SMS code
     * (`kuvert.delivery.signup.requireSms`) and the sender has not given their phone number yet.
     */
    phoneNumberMissing: z.boolean().optional(),
    /**
     * Levels 3/4, sender's view only: the registered recipient's user id, so the sender's browser can
     * show whether the key it pinned for them is verified (issue 12 §4). The sender wraps file keys
     * to this user anyway (recipient-keys, release list); nobody else is told.
     */
    userUuid: z.string().optional(),
    /**
     * Sender's view: a trust-network partner server serves this address (docs/trust-networks.md,
     * "Deliveries"): its URL, and `waiting` until it has the delivery, then `delivered` (or `failed`
     * after the last retry, `withdrawn` when the sender deleted it first). Its own mail reaches the recipient.
     */
    partnerServer: z.object({ url: z.string(), state: z.enum(['waiting', 'delivered', 'failed', 'withdrawn']) }).optional(),
  })
  .meta({ id: 'DeliveryRecipient' });
export type DeliveryRecipient = z.infer<typeof DeliveryRecipientSchema>;

export const DeliverySummarySchema = z
  .object({
    deliveryUuid: z.string(),
    status: DeliveryStatusSchema,
    sender: PartySchema,
    subject: z.string(),
    securityLevel: SecurityLevelSchema,
    createdAt: z.number(),
    sentAt: z.number().nullable(),
    /** Epoch ms; null = permanently available. */
    expiresAt: z.number().nullable(),
    validityDays: z.number().nullable(),
    timeState: TimeStateSchema,
    reviewState: ReviewStateSchema,
    /** The attachments can be downloaded now: not under review or blocked, not expired. */
    attachmentsAvailable: z.boolean(),
    fileCount: z.number().int(),
    totalSize: z.number().int(),
    /** Inbox: the caller downloaded it; sent: every recipient did. */
    downloaded: z.boolean(),
  })
  .meta({ id: 'DeliverySummary' });
export type DeliverySummary = z.infer<typeof DeliverySummarySchema>;

export const DeliveryDetailSchema = DeliverySummarySchema.extend({
  body: z.string(),
  language: LanguageSchema,
  files: z.array(DeliveryFileSchema),
  /** The sender sees every recipient with its state; a recipient sees the main recipients and their own entry. */
  recipients: z.array(DeliveryRecipientSchema),
  /** How the caller reached it. */
  viewer: z.enum(['sender', 'recipient', 'token']),
  /**
   * Levels 3/4, the caller's own access: `ok` (descriptors present), `passphraseNeeded` (no
   * SecuPass: create one, then the sender releases), `releasePending` (a passphrase exists,
   * the sender has not released yet).
   */
  e2eAccess: z.enum(['ok', 'passphraseNeeded', 'releasePending']).optional(),
  /**
   * Levels 3/4: the delivery is a web form's submission, sent by an account made for that one
   * submission (its address made up, its keys made and dropped in the visitor's browser): the
   * form's name, which the reader is shown as the sender (issue 33 §2). Absent otherwise.
   */
  fromForm: z.object({ name: z.string() }).optional(),
}).meta({ id: 'DeliveryDetail' });
export type DeliveryDetail = z.infer<typeof DeliveryDetailSchema>;

export const DeliveryPageSchema = z
  .object({
    items: z.array(DeliverySummarySchema),
    page: z.number().int(),
    pageSize: z.number().int(),
    /** Matching rows, counted up to `LIST_TOTAL_CAP` (with `q`: `SEARCH_TOTAL_CAP`). */
    total: z.number().int(),
    /** More rows match than the cap (`total` is the cap). */
    totalCapped: z.boolean(),
    /** The `cursor` of the next page; null when this is the last one. */
    nextCursor: z.string().nullable(),
  })
  .meta({ id: 'DeliveryPage' });
export type DeliveryPage = z.infer<typeof DeliveryPageSchema>;

export const DeliveryParamsSchema = z.object({ deliveryUuid: z.string().max(64) });
export const FileParamsSchema = z.object({ deliveryUuid: z.string().max(64), fileId: z.string().max(64) });
export const PartParamsSchema = FileParamsSchema.extend({ index: z.coerce.number().int().min(0).max(1_000_000) });
export const TokenQuerySchema = z.object({ token: z.string().max(200).optional() }).strict();

export const ResendNotificationBodySchema = z
  .object({ shareUuid: z.string().max(64).optional() })
  .strict()
  .meta({ id: 'ResendNotificationBody' });
export const ResendNotificationResponseSchema = z
  .object({ notified: z.array(z.string()) })
  .meta({ id: 'ResendNotificationResponse' });

/** `released`: the sender re-wrapped the keys to a recipient's new SecuPass key. `reviewClean` / `reviewBlocked` (detail: the review state and why): the virus scan's outcome. */
export const ActivityKindSchema = z.enum([
  'created',
  'fileCommitted',
  'sent',
  'notified',
  'notificationFailed',
  'downloaded',
  'deleted',
  'removedFromInbox',
  'reviewClean',
  'reviewBlocked',
  'released',
]);
export const ActivityEntrySchema = z
  .object({
    at: z.number(),
    kind: ActivityKindSchema,
    /** Who acted or was acted upon (a recipient's address, the sender's address). */
    actor: z.string().nullable(),
    /** e.g. the file name of a download. */
    detail: z.string().nullable(),
  })
  .meta({ id: 'DeliveryActivityEntry' });
export const ActivityResponseSchema = z.object({ entries: z.array(ActivityEntrySchema) }).meta({ id: 'DeliveryActivity' });
export type ActivityEntry = z.infer<typeof ActivityEntrySchema>;

/** GET /deliveries/{deliveryUuid}/recipient-keys: who can receive file keys now. */
export const RecipientKeysResponseSchema = z
  .object({
    /** `email`: the sender's address, signed into the manifest (version 2) so readers see the signer, not the server's claim. */
    sender: z.object({ userUuid: z.string(), email: z.string(), keys: z.array(PublicKeySchema.extend({ fingerprint: z.string() })) }),
    recipients: z.array(
      z.object({
        email: z.string(),
        /** null: not registered (invited at send; release after signup and passphrase). */
        userUuid: z.string().nullable(),
        secupassState: SecuPassStateSchema,
        /** Live public keys (empty without an active SecuPass). Clients recompute fingerprints and check pins. */
        keys: z.array(PublicKeySchema.extend({ fingerprint: z.string() })),
        /** A trust-network partner serves this address: the keys are its signed look-up's answer ("verified by partner server"), `userUuid` is the user's id there. */
        partnerServer: z.string().optional(),
      }),
    ),
  })
  .meta({ id: 'DeliveryRecipientKeys' });
export type RecipientKeysResponse = z.infer<typeof RecipientKeysResponseSchema>;

export const NewDescriptorSchema = z
  .object({
    recipientUserUuid: z.string().max(64),
    recipientKeyId: z.string().min(1).max(128),
    /** A file of the delivery, or E2E_MANIFEST_FILE_ID. */
    fileId: z.string().max(64),
    wrappedKey: WrappedFileKeySchema,
  })
  .strict()
  .meta({ id: 'NewAccessDescriptor' });
export type NewDescriptor = z.infer<typeof NewDescriptorSchema>;

/** Largest encrypted manifest (base64url): a 100 000-character level-4 message, 500 file names, with room. */
export const MAX_E2E_MANIFEST_CHARS = 2_000_000;

/** PUT /deliveries/{deliveryUuid}/e2e (a draft's sender). Replaces earlier ones (a retried send). */
export const PutE2eBodySchema = z
  .object({
    /** The signed manifest (shared/crypto SignedManifest, JSON, UTF-8) in the E2E stream format, base64url. */
    manifest: z.string().min(1).max(MAX_E2E_MANIFEST_CHARS).regex(/^[A-Za-z0-9_-]+$/),
    descriptors: z.array(NewDescriptorSchema).min(1).max(20_000),
  })
  .strict()
  .meta({ id: 'PutE2eBody' });
export type PutE2eBody = z.infer<typeof PutE2eBodySchema>;

/** GET /deliveries/{deliveryUuid}/e2e. */
export const E2eResponseSchema = z
  .object({
    senderUserUuid: z.string(),
    manifest: z.string(),
    /** Only the caller's own live copies. */
    descriptors: z.array(AccessDescriptorSchema),
  })
  .meta({ id: 'DeliveryE2e' });
export type E2eResponse = z.infer<typeof E2eResponseSchema>;

/** POST /deliveries/{deliveryUuid}/release: copies for one recipient's key (every file and the manifest). */
export const ReleaseBodySchema = z
  .object({ descriptors: z.array(NewDescriptorSchema).min(1).max(1_000) })
  .strict()
  .meta({ id: 'ReleaseBody' });
export type ReleaseBody = z.infer<typeof ReleaseBodySchema>;

/** GET /deliveries/release: one entry per (delivery, recipient) that waits for the sender. */
export const ReleaseListSchema = z
  .object({
    items: z.array(
      z.object({
        deliveryUuid: z.string(),
        subject: z.string(),
        securityLevel: SecurityLevelSchema,
        sentAt: z.number().nullable(),
        recipient: z.object({
          email: z.string(),
          userUuid: z.string(),
          keys: z.array(PublicKeySchema.extend({ fingerprint: z.string() })),
          /** A trust-network partner serves the recipient: its URL (the keys are its signed look-up's answer, `userUuid` the id there). */
          partnerServer: z.string().optional(),
        }),
      }),
    ),
  })
  .meta({ id: 'ReleaseList' });
export type ReleaseList = z.infer<typeof ReleaseListSchema>;

/** Most addresses one POST /deliveries/recipient-status takes. */
export const MAX_RECIPIENT_STATUS_EMAILS = 50;

/** POST /deliveries/recipient-status: addresses the sender typed (the chips). */
export const RecipientStatusBodySchema = z
  .object({
    emails: z.array(z.string().trim().min(1).max(320)).min(1).max(MAX_RECIPIENT_STATUS_EMAILS),
    /** Levels 3/4 chosen: also the user id and live encryption key of each address with an active SecuPass (the chips' verified badges). */
    withKeys: z.boolean().optional(),
  })
  .strict()
  .meta({ id: 'DeliveryRecipientStatusBody' });
export type RecipientStatusBody = z.infer<typeof RecipientStatusBodySchema>;

/**
 * What a sender may know of an address for the chip warnings (SPEC §5): registered or not, and
 * whether it has an active passphrase (SecuPass) for levels 3/4. No names or other state; with
 * `withKeys` (levels 3/4) the user id and live encryption key of an address with an active
 * SecuPass — what GET …/recipient-keys tells about a draft's recipients, under the same budget —
 * so the browser can show whether that key is the one it pinned and verified (issue 12 §4).
 */
export const RecipientStatusSchema = z
  .object({
    email: z.string(),
    registered: z.boolean(),
    hasPassphrase: z.boolean(),
    userUuid: z.string().optional(),
    encryptionKey: PublicKeySchema.optional(),
    /** A trust-network partner serves the address: its URL; the answer is the partner's signed key look-up (`userUuid` is the id there). */
    partnerServer: z.string().optional(),
  })
  .meta({ id: 'DeliveryRecipientStatus' });
export type RecipientStatus = z.infer<typeof RecipientStatusSchema>;
export const RecipientStatusResponseSchema = z.object({ recipients: z.array(RecipientStatusSchema) }).meta({ id: 'DeliveryRecipientStatusResponse' });
export type RecipientStatusResponse = z.infer<typeof RecipientStatusResponseSchema>;
