import { z } from 'zod';
import { EncryptionNotActivatedSchema, MissingFileKeySchema, ROOM_NAME_WIRE_MAX, ROOM_ROLES } from './rooms';
import { UserPublicKeysResponseSchema, WrappedFileKeySchema } from './secupass';

/**
 * End-to-end encrypted data rooms (issue 15; shared/crypto/README.md "7. Data rooms"; server/README
 * "End-to-end encrypted rooms"). The browser seals names, file keys and signed metadata under the
 * room key; the server stores those strings and the members' room-key copies (access descriptors,
 * kind `dataRoom`, file id `room-key`) and enforces the SPEC §6 roles as in plain rooms.
 *
 * Item ids are chosen by the browser (a UUID) because every sealed string is bound to its item's id.
 * Plain-room calls that carry a name (create folder/file, rename, search) answer an E2E room with
 * 409 `ConflictException`, reason `encryptedRoom` (ROOM_KIND_ERROR_REASONS); moving (no name) and the
 * other shared calls (contents, delete, access, parts, download) work alike.
 */

/** "r1." ‖ base64url(iv ‖ ciphertext ‖ tag): the sealed-string format of the room scheme. */
const sealed = (max: number) => z.string().min(3 + 38).max(max).regex(/^r1\.[A-Za-z0-9_-]+$/, 'a sealed room string (r1.…) expected');
export const SealedNameSchema = sealed(ROOM_NAME_WIRE_MAX);
const Uuid = z.string().uuid();

/** The copy's file id in the HPKE binding and in the access descriptor. */
export const ROOM_KEY_DESCRIPTOR_FILE_ID = 'room-key';

/**
 * The grant of a room-key copy, signed by its granter (shared/crypto/room-grant.ts; README section 7
 * "Who made my copy of the room key"): the server stores it beside the copy and hands it to the
 * recipient, who verifies it against the granter's pinned key before encrypting under the room key.
 */
export const SignedRoomKeyGrantSchema = z
  .object({
    grant: z
      .object({
        format: z.literal(1),
        roomId: Uuid,
        epoch: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER),
        recipientUserId: Uuid,
        recipientKeyId: z.string().min(1).max(128),
        wrappedKeySha256: z.string().min(1).max(64),
        granterUserId: Uuid,
        signerKeyId: z.string().min(1).max(128),
        createdAt: z.string().min(1).max(40),
      })
      .strict(),
    signature: z.string().min(1).max(200),
  })
  .strict()
  .meta({ id: 'SignedRoomKeyGrant' });
export type SignedRoomKeyGrantWire = z.infer<typeof SignedRoomKeyGrantSchema>;

export const CreateE2eRoomBodySchema = z
  .object({
    uuid: Uuid,
    name: SealedNameSchema,
    /** The creator's own room-key copy (HPKE to her live encryption key). */
    recipientKeyId: z.string().min(1).max(128),
    wrappedKey: WrappedFileKeySchema,
    /** The creator's grant of her own copy (optional for clients of before; readers do not encrypt with a copy without one). */
    grant: SignedRoomKeyGrantSchema.optional(),
  })
  .strict()
  .meta({ id: 'CreateE2eRoomBody' });
export type CreateE2eRoomBody = z.infer<typeof CreateE2eRoomBodySchema>;

export const CreateE2eFolderBodySchema = z
  .object({ uuid: Uuid, name: SealedNameSchema, parentUuid: Uuid.nullable().optional() })
  .strict()
  .meta({ id: 'CreateE2eFolderBody' });

export const CreateE2eFileBodySchema = z
  .object({
    uuid: Uuid,
    name: SealedNameSchema,
    /** Ciphertext bytes (the stream format's length): what the parts carry. */
    size: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER),
    /** Plaintext bytes, as signed in the metadata (readers compare). */
    plaintextSize: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
    folderUuid: Uuid.nullable().optional(),
    /** The file key sealed under the room key (bound to room, file, version 1). */
    wrappedFileKey: sealed(200),
    /**
     * The signed metadata sealed under the room key. Optional: it signs the hash of the whole
     * plaintext, so a browser that reads the file once sends it with the commit instead.
     */
    metadata: sealed(20_000).optional(),
    /**
     * A new version of this file (the browser found the name taken by decrypted names). The file
     * key and metadata are then bound to that file's uuid and its next version; at the commit the
     * upload becomes the file's content and the current one a version (kept 30 days).
     */
    replaceUuid: Uuid.optional(),
  })
  .strict()
  .meta({ id: 'CreateE2eFileBody' });
export type CreateE2eFileBody = z.infer<typeof CreateE2eFileBodySchema>;

/** POST …/e2e/files/{fileUuid}/commit: the signed metadata (now that the plaintext hash is known), then the plain commit. */
export const CommitE2eFileBodySchema = z.object({ metadata: sealed(20_000) }).strict().meta({ id: 'CommitE2eFileBody' });
export type CommitE2eFileBody = z.infer<typeof CommitE2eFileBodySchema>;

export const E2eItemParamsSchema = z.object({ roomUuid: Uuid, itemUuid: Uuid }).strict();
/**
 * A new sealed name. For a file also `metadata`: its signed metadata re-signed by the renamer with
 * the new name (same version, file key and bytes); readers then verify against the renamer's key.
 */
/** The SPEC §4 activity types of a Secure room file's re-signing that changed its classification and/or status (the values stay sealed). */
export const E2E_LABEL_CHANGES = ['classification_set', 'classification_changed', 'classification_deleted', 'status_set', 'status_changed', 'status_removed'] as const;
export type E2eLabelChange = (typeof E2E_LABEL_CHANGES)[number];

export const E2eRenameBodySchema = z
  .object({
    name: SealedNameSchema,
    metadata: sealed(20_000).optional(),
    /**
     * A file only: the re-signed metadata changes its classification and/or status (shared/crypto/
     * README.md section 7 "Classification and file status"), logged as these types instead of `edit`,
     * without the values (at most one classification and one status change).
     */
    labelChanges: z.array(z.enum(E2E_LABEL_CHANGES)).min(1).max(2).optional(),
  })
  .strict()
  .refine((b) => !b.labelChanges || b.labelChanges.filter((c) => c.startsWith('classification')).length <= 1 && b.labelChanges.filter((c) => c.startsWith('status')).length <= 1, {
    path: ['labelChanges'],
    message: 'At most one classification and one status change',
  })
  .meta({ id: 'E2eRenameBody' });
export type E2eRenameBody = z.infer<typeof E2eRenameBodySchema>;

/**
 * UUIDs one `…/e2e/files?uuids=` call takes: 100 make a URL of ~3.7 KB, inside Node's 16 KiB and
 * common proxies' 8 KB header limits (a page of 1 000 asked at once was a 431 from Node); a larger
 * page of the contents call asks in several calls.
 */
export const ROOM_E2E_FILES_UUIDS_MAX = 100;

export const E2eFilesQuerySchema = z
  .object({
    folderUuid: Uuid.optional(),
    /** Only these files (comma-separated UUIDs, up to ROOM_E2E_FILES_UUIDS_MAX): a page opens without the whole folder's extras. */
    uuids: z
      .string()
      .max(ROOM_E2E_FILES_UUIDS_MAX * 37)
      .transform((v) => v.split(','))
      .pipe(z.array(Uuid).min(1).max(ROOM_E2E_FILES_UUIDS_MAX))
      .optional(),
  })
  .strict();

/** The sealed extras of one complete file (the listing itself is the plain contents call). */
export const E2eFileKeysSchema = z
  .object({
    uuid: z.string(),
    version: z.number().int(),
    plaintextSize: z.number().int(),
    wrappedFileKey: z.string(),
    metadata: z.string(),
    /** The server's uploader (the signed metadata must name the same user). */
    uploaderUuid: z.string().nullable(),
    /** Whose key signed the metadata: the uploader, or the member who renamed the file (re-signed). */
    signerUuid: z.string().nullable(),
  })
  .meta({ id: 'E2eFileKeys' });
export const E2eFileKeysListSchema = z.object({ files: z.array(E2eFileKeysSchema) }).meta({ id: 'E2eFileKeysList' });
export type E2eFileKeysList = z.infer<typeof E2eFileKeysListSchema>;

/**
 * A member's E2E state: `noSecuPass` (encryption not activated), `pending` (activated, no room-key
 * copy yet: the missing-file-key flag; an OWNER grants), `approved` (has a copy), `notApproved`
 * (an OWNER declined this key; a grant or a new SecuPass makes it pending/approved again).
 */
export const E2eMemberStateSchema = z.enum(['noSecuPass', 'pending', 'approved', 'notApproved']);
export type E2eMemberState = z.infer<typeof E2eMemberStateSchema>;

const PublicKeysSchema = UserPublicKeysResponseSchema.shape.keys;
/** Who the server says signed a copy's grant: her signing keys (live and retired) and her role here now. */
const RoomKeyGranterSchema = z.object({ userUuid: z.string(), email: z.string(), role: z.enum(ROOM_ROLES).nullable(), keys: PublicKeysSchema });

/** GET /rooms/{roomUuid}/e2e (any member): the caller's copy and state, and the uploaders' keys to verify with. */
export const E2eRoomStateSchema = z
  .object({
    state: E2eMemberStateSchema,
    /**
     * The caller's live room-key copy; null unless `approved`. `grant`: its signed grant (null: a copy
     * made without one); `granter`: who the server says signed it, with her signing keys (live and
     * retired) and role here now — the reader pin-checks and verifies before encrypting.
     */
    roomKey: z
      .object({
        id: z.string(),
        recipientKeyId: z.string(),
        wrappedKey: WrappedFileKeySchema,
        grant: SignedRoomKeyGrantSchema.nullable(),
        granter: RoomKeyGranterSchema.nullable(),
      })
      .nullable(),
    /**
     * Everyone who uploaded to the room or re-signed a file, with live and retired signing keys
     * (pin-check before use) and their strongest role here now (null: no longer a member); readers
     * refuse metadata signed by a VIEWER or PREVIEWER (`room-signer-not-writer`).
     */
    signers: z.array(z.object({ userUuid: z.string(), email: z.string(), role: z.enum(ROOM_ROLES).nullable(), keys: PublicKeysSchema })),
  })
  .meta({ id: 'E2eRoomState' });
export type E2eRoomState = z.infer<typeof E2eRoomStateSchema>;

export const E2eMemberSchema = z
  .object({
    user: z.object({ uuid: z.string(), email: z.string(), name: z.string() }),
    /** Role on the room, or the strongest set on a folder. */
    role: z.enum(ROOM_ROLES),
    state: E2eMemberStateSchema,
    /** SPEC §3 access entry flags, the same as GET …/access says. */
    missingFileKey: MissingFileKeySchema,
    encryptionNotActivated: EncryptionNotActivatedSchema,
    /** Live keys (pending members: what the OWNER wraps to after the pin check). */
    keys: PublicKeysSchema,
    /**
     * An `approved` member's live copy with its signed grant and granter (null: no copy), as GET
     * …/e2e hands it to the member: the OWNER's browser verifies it for the members table's
     * grant state (README section 7 "The members' copies"). Absent from servers of before.
     */
    copy: z.object({ wrappedKey: WrappedFileKeySchema, grant: SignedRoomKeyGrantSchema.nullable(), granter: RoomKeyGranterSchema.nullable() }).nullable().optional(),
  })
  .meta({ id: 'E2eMember' });
export type E2eMember = z.infer<typeof E2eMemberSchema>;
export const E2eMemberListSchema = z.object({ members: z.array(E2eMemberSchema) }).meta({ id: 'E2eMemberList' });
export type E2eMemberList = z.infer<typeof E2eMemberListSchema>;

export const E2eMemberParamsSchema = z.object({ roomUuid: Uuid, userUuid: Uuid }).strict();

/** Grant (approve: the OWNER's re-wrapped copy for the member's live key) or decline (approve false). */
export const E2eGrantBodySchema = z
  .object({
    approve: z.boolean(),
    recipientKeyId: z.string().min(1).max(128).optional(),
    wrappedKey: WrappedFileKeySchema.optional(),
    /** The OWNER's signed grant of this copy (as for the create call). */
    grant: SignedRoomKeyGrantSchema.optional(),
  })
  .strict()
  .meta({ id: 'E2eGrantBody' });
export type E2eGrantBody = z.infer<typeof E2eGrantBodySchema>;

export const ROOM_E2E_PATHS = {
  create: '/rooms/e2e',
  list: '/rooms/e2e',
  state: (roomUuid: string) => `/rooms/${roomUuid}/e2e`,
  members: (roomUuid: string) => `/rooms/${roomUuid}/e2e/members`,
  grant: (roomUuid: string, userUuid: string) => `/rooms/${roomUuid}/e2e/members/${userUuid}/key`,
  folders: (roomUuid: string) => `/rooms/${roomUuid}/e2e/folders`,
  files: (roomUuid: string) => `/rooms/${roomUuid}/e2e/files`,
  commit: (roomUuid: string, fileUuid: string) => `/rooms/${roomUuid}/e2e/files/${fileUuid}/commit`,
  item: (roomUuid: string, itemUuid: string) => `/rooms/${roomUuid}/e2e/items/${itemUuid}`,
} as const;
