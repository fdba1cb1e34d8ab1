import { z } from 'zod';
import { MAX_NAME_LENGTH, typedName, type NameProblem } from './names';

/**
 * Data rooms (SPEC §1 "data rooms", §3 data room/folder/access entry, §5, §6; issue 15).
 * Plain (non-E2E) rooms, nested folders, access roles, files (room-files.ts: upload, download,
 * rename/move, trash, search, activity). Quota and the trash bin follow (server/README "Data rooms").
 *
 * Designed so end-to-end encrypted rooms fit later without a wire break: a room carries an
 * `encrypted` flag; names are strings up to `ROOM_NAME_WIRE_MAX` so an E2E room can carry a
 * ciphertext name there; an access entry has a `wrappedKey` slot (null in a plain room).
 */

/** SPEC §6: the data-room and folder access roles, strongest first. */
export const ROOM_ROLES = ['OWNER', 'EDITOR', 'VIEWER', 'PREVIEWER'] as const;
export type RoomRole = (typeof ROOM_ROLES)[number];

/** What each role may do, exactly the SPEC §6 table (the server enforces it from here). */
export const ROOM_PERMISSIONS = {
  OWNER: { preview: true, download: true, upload: true, edit: true, delete: true, activity: true, manageAccess: true },
  EDITOR: { preview: true, download: true, upload: true, edit: true, delete: true, activity: false, manageAccess: false },
  VIEWER: { preview: true, download: true, upload: false, edit: false, delete: false, activity: false, manageAccess: false },
  PREVIEWER: { preview: true, download: false, upload: false, edit: false, delete: false, activity: false, manageAccess: false },
} as const satisfies Record<RoomRole, Record<string, boolean>>;
export type RoomPermission = keyof (typeof ROOM_PERMISSIONS)['OWNER'];

/** §5 "not too long": a room, folder or file name (the one name rule's limit, UTF-16 units). */
export const ROOM_NAME_MAX = MAX_NAME_LENGTH;
/** Room for a ciphertext name (E2E rooms); plain names are checked against ROOM_NAME_MAX. */
export const ROOM_NAME_WIRE_MAX = 2048;

export type RoomNameProblem = NameProblem;

/**
 * A room/folder/file name's §5 problem, or null: the product's one name rule (names.ts) on the
 * typed name with blanks around it dropped (what is stored). E2E rooms check it before sealing.
 */
export function roomNameProblem(name: string): RoomNameProblem | null {
  return typedName(name).problem ?? null;
}

/**
 * `metadata.reason` of a call refused for the room's kind (issue 31 §0, issue 32), always 409
 * `ConflictException` (server rooms/kind/room-kind.ts is the one guard): `encryptedRoom` — a plain-room
 * call the server cannot serve for a Secure (end-to-end encrypted) room (names it would read or write,
 * search, ZIP, public links, requests); `notEncrypted` — a Secure-room call on a plain room. The web
 * client answers `encryptedRoom` with "open it under Secure rooms".
 */
export const ROOM_KIND_ERROR_REASONS = ['encryptedRoom', 'notEncrypted'] as const;
export type RoomKindErrorReason = (typeof ROOM_KIND_ERROR_REASONS)[number];

/**
 * Every `metadata.reason` the data-room calls answer (server/rooms/, issue 31 §0), for the screens'
 * messages: the kind refusals above, the name rule's `invalidFileName` (names.ts), and the rest by
 * area. tests/lint/server-floor-plan.test.ts keeps each reason written in server/rooms/ listed here.
 */
export const ROOM_ERROR_REASONS = [
  ...ROOM_KIND_ERROR_REASONS,
  // names, moves, trash
  'invalidFileName', 'nameExists', 'moveIntoItself', 'moveToOtherRoom', 'parentInTrash', 'uuidTaken', 'useE2eCreate',
  // comments (issue 31 §1)
  'commentTooLong', 'commentEmpty', 'notCommentAuthor', 'signatureRequired',
  // uploads, versions, scan, preview
  'uploading', 'zeroByteFile', 'notReplaceable', 'versionConflict', 'scanInProgress', 'virusDetected', 'scanFailed', 'previewNotSupported',
  // access and invitations
  'lastOwner', 'confirmOwnChange', 'notRegistered', 'invitationNotSent', 'invitationExpiredOrUsed', 'userAlreadyRegistered', 'linkInvalid',
  // Secure rooms: creation, keys, signed metadata and member list
  'e2eRoomsNotAllowed', 'e2eRoomsNeedLicence', 'recipientKeyNotLive', 'keyIdMismatch', 'grantMismatch', 'wrappedKeyMissing', 'encryptionNotActivated',
  'noSigningKey', 'e2eMetadataRequired', 'e2eMetadataMissing', 'memberListMismatch',
  // public links, requests
  'linkExpired', 'linkRevoked', 'linkUsedUp', 'passwordRequired', 'passwordWrong', 'fileDeleted', 'folderDeleted', 'wrongLinkKind', 'creatorLostAccess', 'invalidEmail', 'ownAddress', 'requestRecipientFixed', 'encryptedLevel',
] as const;
export type RoomErrorReason = (typeof ROOM_ERROR_REASONS)[number];

const Uuid = z.string().uuid();
const Name = z.string().max(ROOM_NAME_WIRE_MAX);

export const RoomParamsSchema = z.object({ roomUuid: Uuid }).strict();
export const FolderParamsSchema = z.object({ roomUuid: Uuid, folderUuid: Uuid }).strict();

export const RoomSchema = z
  .object({
    uuid: z.string(),
    name: z.string(),
    /** End-to-end encrypted room (names and bytes are ciphertext); not available yet. */
    encrypted: z.boolean(),
    /** The caller's effective role in the room itself. */
    role: z.enum(ROOM_ROLES),
    createdBy: z.string(),
    /** Issue 32: the creator's display name, shown instead of the address (absent or null: none known). */
    createdByName: z.string().nullable().optional(),
    createdAt: z.number(),
    updatedAt: z.number(),
  })
  .meta({ id: 'Room' });
export type Room = z.infer<typeof RoomSchema>;

/**
 * SPEC §4 classification and file status of a file or folder (issue 31 §1). Plain rooms: set with
 * PATCH on the file or folder (OWNER, EDITOR), each change logged (`classification_set` /
 * `_changed` / `_deleted`, `status_set` / `_changed` / `_removed`). Secure rooms: part of the
 * file's signed metadata (shared/crypto/README section 7); the server answers `none` there.
 */
export const ROOM_CLASSIFICATIONS = ['none', 'public', 'internal', 'private', 'confidential'] as const;
export type RoomClassification = (typeof ROOM_CLASSIFICATIONS)[number];
export const ROOM_FILE_STATUSES = ['none', 'toDo', 'inProgress', 'done', 'rejected'] as const;
export type RoomFileStatus = (typeof ROOM_FILE_STATUSES)[number];

export const RoomFolderSchema = z
  .object({
    uuid: z.string(),
    roomUuid: z.string(),
    /** null: directly in the room. */
    parentUuid: z.string().nullable(),
    name: z.string(),
    /** The caller's effective role here (inherited unless set on this folder or above it). */
    role: z.enum(ROOM_ROLES),
    createdBy: z.string(),
    /** Issue 32: the creator's display name (absent or null: none known). */
    createdByName: z.string().nullable().optional(),
    createdAt: z.number(),
    classification: z.enum(ROOM_CLASSIFICATIONS),
    status: z.enum(ROOM_FILE_STATUSES),
  })
  .meta({ id: 'RoomFolder' });
export type RoomFolder = z.infer<typeof RoomFolderSchema>;

export const RoomListQuerySchema = z
  .object({
    pageSize: z.coerce.number().int().min(1).max(200).default(25),
    /** Opaque: a previous answer's `nextCursor`. */
    cursor: z.string().min(1).max(100).optional(),
    /** Case-insensitive search in the room name. */
    q: z.string().max(200).optional(),
  })
  .strict()
  .meta({ id: 'RoomListQuery' });
export type RoomListQuery = z.input<typeof RoomListQuerySchema>;

/** GET /rooms/e2e: the Secure rooms' list pages alike; no `q` (their names are sealed, the browser searches them). */
export const E2eRoomListQuerySchema = RoomListQuerySchema.omit({ q: true }).strict().meta({ id: 'E2eRoomListQuery' });
export type E2eRoomListQuery = z.input<typeof E2eRoomListQuerySchema>;

export const RoomListSchema = z
  .object({
    rooms: z.array(RoomSchema),
    nextCursor: z.string().nullable(),
    /** What the caller may create now (SPEC §6 licence rule, Secure rooms › General): the web shows only those buttons. */
    mayCreate: z.object({ plain: z.boolean(), e2e: z.boolean() }),
  })
  .meta({ id: 'RoomList' });
export type RoomList = z.infer<typeof RoomListSchema>;

/** A complete file of a plain room (one still uploading is seen by its uploader's part calls only). */
/**
 * SPEC §3 virus-scan state of a room file: plain rooms are scanned like level 1/2 deliveries
 * (`scanning` until clamd answers; `notScanned` when scanning is off or the room is end-to-end
 * encrypted). `scanning`, `virusDetected` and `error` files cannot be downloaded or previewed.
 */
export const ROOM_SCAN_STATES = ['notScanned', 'scanning', 'clean', 'virusDetected', 'error'] as const;
export type RoomScanState = (typeof ROOM_SCAN_STATES)[number];

export const RoomFileSchema = z
  .object({
    uuid: z.string(),
    roomUuid: z.string(),
    /** null: directly in the room. */
    folderUuid: z.string().nullable(),
    name: z.string(),
    size: z.number().int(),
    mimeType: z.string(),
    /** SHA-256 (hex) of the whole file, computed by the server at the commit. */
    sha256: z.string().nullable(),
    /** The caller's effective role on the file (the one of its folder). */
    role: z.enum(ROOM_ROLES),
    uploadedBy: z.string(),
    /** Issue 32: the uploader's display name (absent or null: none known). */
    uploadedByName: z.string().nullable().optional(),
    createdAt: z.number(),
    updatedAt: z.number(),
    scanState: z.enum(ROOM_SCAN_STATES),
    classification: z.enum(ROOM_CLASSIFICATIONS),
    status: z.enum(ROOM_FILE_STATUSES),
  })
  .meta({ id: 'RoomFile' });
export type RoomFile = z.infer<typeof RoomFileSchema>;

/** How a folder's files are ordered (ties: oldest first); `name` ignores case. */
export const ROOM_FILE_SORTS = ['name', 'size', 'updatedAt'] as const;
export type RoomFileSort = (typeof ROOM_FILE_SORTS)[number];
/** Files per page of a folder's contents: when `pageSize` is not given, and at most. */
export const ROOM_FILES_PAGE_DEFAULT = 200;
export const ROOM_FILES_PAGE_MAX = 1000;

/** Paging of the files of a room's top level or a folder (keyset: the cursor names the last file seen). */
export const RoomContentsQuerySchema = z
  .object({
    pageSize: z.coerce.number().int().min(1).max(ROOM_FILES_PAGE_MAX).default(ROOM_FILES_PAGE_DEFAULT),
    /** Opaque: a previous answer's `nextCursor` for the same sort and order. */
    cursor: z.string().min(1).max(400).optional(),
    sort: z.enum(ROOM_FILE_SORTS).default('name'),
    order: z.enum(['asc', 'desc']).default('asc'),
  })
  .strict()
  .meta({ id: 'RoomContentsQuery' });
export type RoomContentsQuery = z.input<typeof RoomContentsQuerySchema>;

/**
 * A room or a folder with the folders and complete files directly inside it. Files come a page at a
 * time (`pageSize`, `cursor`, `sort`, `order`); the sub-folders (all of them, by name) only with the
 * first page — a page asked for with a cursor has `folders: []`.
 */
export const RoomContentsSchema = z
  .object({
    room: RoomSchema,
    /** null: the room's top level. */
    folder: RoomFolderSchema.nullable(),
    /** From the room down to the folder's parent (breadcrumb). */
    path: z.array(z.object({ uuid: z.string(), name: z.string() })),
    folders: z.array(RoomFolderSchema),
    /** This page of the complete files, in the asked order. */
    files: z.array(RoomFileSchema),
    /** Complete files directly here, all pages together. */
    totalFiles: z.number().int(),
    /** The next page's cursor; null on the last page. */
    nextCursor: z.string().nullable(),
  })
  .meta({ id: 'RoomContents' });
export type RoomContents = z.infer<typeof RoomContentsSchema>;

export const CreateRoomBodySchema = z
  .object({
    name: Name,
    /** true: answered 400 `ValidationException`, reason `useE2eCreate`: E2E rooms are created with `POST /rooms/e2e` (rooms-e2e.ts). */
    encrypted: z.boolean().default(false),
  })
  .strict()
  .meta({ id: 'CreateRoomBody' });
export const RenameBodySchema = z.object({ name: Name }).strict().meta({ id: 'RoomRenameBody' });

export const CreateFolderBodySchema = z
  .object({ name: Name, /** Absent or null: at the room's top level. */ parentUuid: Uuid.nullable().optional() })
  .strict()
  .meta({ id: 'CreateRoomFolderBody' });

/** Rename and/or move a folder. Moving into another room is refused (SPEC §2). */
export const UpdateFolderBodySchema = z
  .object({
    name: Name.optional(),
    /** The new parent (null: the room's top level). */
    parentUuid: Uuid.nullable().optional(),
    /** Another room here answers 400 `ValidationException`, reason `moveToOtherRoom`. */
    roomUuid: Uuid.optional(),
    /** Plain rooms only (`none` removes it); a Secure room answers 409 `encryptedRoom`. */
    classification: z.enum(ROOM_CLASSIFICATIONS).optional(),
    status: z.enum(ROOM_FILE_STATUSES).optional(),
  })
  .strict()
  .meta({ id: 'UpdateRoomFolderBody' });

export const RoomAccessQuerySchema = z.object({ folderUuid: Uuid.optional() }).strict();

/**
 * The SPEC §3 E2E flags, one meaning on GET …/access and GET …/e2e/members (server/rooms/e2e/e2e-flags.ts):
 * a member is either not activated or missing the file key, never both.
 */
export const MissingFileKeySchema = z
  .boolean()
  .describe('E2E rooms: the member has activated end-to-end encryption (a live encryption key) but holds no room-key copy wrapped to it — not granted yet, or declined. False while encryption is not activated (see encryptionNotActivated) and in a plain room.');
export const EncryptionNotActivatedSchema = z
  .boolean()
  .describe('E2E rooms: the member has no active SecuPass (no live encryption key), so no room key can be granted yet. False in a plain room.');

export const RoomAccessEntrySchema = z
  .object({
    user: z.object({ uuid: z.string(), email: z.string(), username: z.string(), name: z.string() }),
    role: z.enum(ROOM_ROLES),
    /** Where the role is set: null on the room, else the folder's uuid (here or above). */
    setOn: z.string().nullable(),
    /** true: set on the room or a folder above, not on the item asked about. */
    inherited: z.boolean(),
    /** E2E rooms later: the room key wrapped for this user; always null in a plain room. */
    wrappedKey: z.string().nullable(),
    missingFileKey: MissingFileKeySchema,
    /** SPEC §3: always false here — addresses without an account are pending invitations (GET …/invitations), not entries. */
    notRegistered: z.boolean(),
    encryptionNotActivated: EncryptionNotActivatedSchema,
  })
  .meta({ id: 'RoomAccessEntry' });
export type RoomAccessEntry = z.infer<typeof RoomAccessEntrySchema>;
export const RoomAccessListSchema = z.object({ entries: z.array(RoomAccessEntrySchema) }).meta({ id: 'RoomAccessList' });
export type RoomAccessList = z.infer<typeof RoomAccessListSchema>;

export const SetRoomAccessBodySchema = z
  .object({
    /** A registered user's email address or username. */
    user: z.string().trim().min(1).max(320),
    /** null: revoke the entry set here (inheritance applies again). */
    role: z.enum(ROOM_ROLES).nullable(),
    /** Absent: the room itself. */
    folderUuid: Uuid.optional(),
    /** Required (true) when the caller changes or revokes their own access; irreversible. */
    confirmOwnChange: z.boolean().optional(),
  })
  .strict()
  .meta({ id: 'SetRoomAccessBody' });
export type SetRoomAccessBody = z.input<typeof SetRoomAccessBodySchema>;

/** Paths relative to `/api/2` (clients go through `call()` with ROOM_ENDPOINTS). */
export const ROOM_PATHS = {
  rooms: '/rooms',
  room: (roomUuid: string) => `/rooms/${roomUuid}`,
  folders: (roomUuid: string) => `/rooms/${roomUuid}/folders`,
  folder: (roomUuid: string, folderUuid: string) => `/rooms/${roomUuid}/folders/${folderUuid}`,
  access: (roomUuid: string) => `/rooms/${roomUuid}/access`,
  files: (roomUuid: string) => `/rooms/${roomUuid}/files`,
  file: (roomUuid: string, fileUuid: string) => `/rooms/${roomUuid}/files/${fileUuid}`,
  fileParts: (roomUuid: string, fileUuid: string) => `/rooms/${roomUuid}/files/${fileUuid}/parts`,
  filePart: (roomUuid: string, fileUuid: string, index: number) => `/rooms/${roomUuid}/files/${fileUuid}/parts/${index}`,
  fileCommit: (roomUuid: string, fileUuid: string) => `/rooms/${roomUuid}/files/${fileUuid}/commit`,
  fileContent: (roomUuid: string, fileUuid: string) => `/rooms/${roomUuid}/files/${fileUuid}/content`,
  search: (roomUuid: string) => `/rooms/${roomUuid}/search`,
  activity: (roomUuid: string) => `/rooms/${roomUuid}/activity`,
  trash: (roomUuid: string) => `/rooms/${roomUuid}/trash`,
  trashItem: (roomUuid: string, itemUuid: string) => `/rooms/${roomUuid}/trash/${itemUuid}`,
  trashRestore: (roomUuid: string, itemUuid: string) => `/rooms/${roomUuid}/trash/${itemUuid}/restore`,
} as const;
