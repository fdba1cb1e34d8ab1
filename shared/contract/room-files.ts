import { z } from 'zod';
import { PartSchema } from './deliveries';
import { ROOM_CLASSIFICATIONS, ROOM_FILE_STATUSES, ROOM_NAME_WIRE_MAX, RoomFileSchema, RoomFolderSchema } from './rooms';

/**
 * Files in plain data rooms (issue 15; server/README "Data rooms"): announce a file, upload its
 * parts through the same resumable mechanism as deliveries (PUT raw parts with `x-content-sha256`,
 * then commit), download with Range, rename, move within the room, delete to the trash, search
 * names in a room, and the room's activity log (OWNERs).
 */

const Uuid = z.string().uuid();
const Name = z.string().max(ROOM_NAME_WIRE_MAX);

export const RoomFileParamsSchema = z.object({ roomUuid: Uuid, fileUuid: Uuid }).strict();
export const RoomFilePartParamsSchema = RoomFileParamsSchema.extend({ index: z.coerce.number().int().min(0).max(1_000_000) });

export const CreateRoomFileBodySchema = z
  .object({
    name: Name,
    /** Bytes; a zero-byte file is refused (SPEC §8 upload failures). */
    size: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
    mimeType: z.string().max(255).optional(),
    /** Absent or null: the room's top level. */
    folderUuid: Uuid.nullable().optional(),
    /**
     * true: a file of this name in the folder gets this upload as its next version at the commit
     * (room-ops.ts). Without it a taken name answers 409 `nameExists` with `kind: file` and the
     * file's `fileUuid` (the web's version-conflict dialog: replace, keep both, cancel).
     */
    replace: z.boolean().optional(),
  })
  .strict()
  .meta({ id: 'CreateRoomFileBody' });
export type CreateRoomFileBody = z.input<typeof CreateRoomFileBodySchema>;

export const RoomFileStateSchema = z.enum(['uploading', 'complete']);

/** An announced file with its part layout (`partCount` parts of `partSize` bytes, the last one shorter). */
export const RoomUploadFileSchema = RoomFileSchema.extend({
  state: RoomFileStateSchema,
  partSize: z.number().int(),
  partCount: z.number().int(),
}).meta({ id: 'RoomUploadFile' });
export type RoomUploadFile = z.infer<typeof RoomUploadFileSchema>;

export const RoomFilePartsSchema = z
  .object({ fileUuid: z.string(), state: RoomFileStateSchema, partSize: z.number().int(), partCount: z.number().int(), parts: z.array(PartSchema) })
  .meta({ id: 'RoomFileParts' });
export type RoomFileParts = z.infer<typeof RoomFilePartsSchema>;

/** Rename and/or move a file. Moving into another room is refused (SPEC §2). */
export const UpdateRoomFileBodySchema = z
  .object({
    name: Name.optional(),
    /** The new folder (null: the room's top level). */
    folderUuid: Uuid.nullable().optional(),
    /** Another room here answers 400 `ValidationException`, reason `moveToOtherRoom`. */
    roomUuid: Uuid.optional(),
    /** SPEC §4, plain rooms only (`none` removes it); a Secure room answers 409 `encryptedRoom` (signed metadata there). */
    classification: z.enum(ROOM_CLASSIFICATIONS).optional(),
    status: z.enum(ROOM_FILE_STATUSES).optional(),
  })
  .strict()
  .meta({ id: 'UpdateRoomFileBody' });

/**
 * `q` on the names; `classification` and `status` (issue 31 §1) keep only items with that value.
 * At least one of the three is needed.
 */
export const RoomSearchQuerySchema = z
  .object({
    q: z.string().trim().min(1).max(200).optional(),
    classification: z.enum(ROOM_CLASSIFICATIONS).optional(),
    status: z.enum(ROOM_FILE_STATUSES).optional(),
    pageSize: z.coerce.number().int().min(1).max(200).default(50),
  })
  .strict()
  .refine((query) => query.q !== undefined || query.classification !== undefined || query.status !== undefined, { path: ['q'], message: 'Enter a search term or choose a classification or status' })
  .meta({ id: 'RoomSearchQuery' });

const SearchPath = z.array(z.object({ uuid: z.string(), name: z.string() }));
/** Set when `q` matched a comment on the item (its first such comment's text), whether or not the name matched too. */
const MatchedComment = z.string().optional();

/** Folders and complete files of the room whose name or a comment on it contains `q` (case-insensitive) and with the asked classification and status, up to `pageSize` each, with their path. */
export const RoomSearchResultSchema = z
  .object({
    folders: z.array(RoomFolderSchema.extend({ path: SearchPath, matchedComment: MatchedComment })),
    files: z.array(RoomFileSchema.extend({ path: SearchPath, matchedComment: MatchedComment })),
  })
  .meta({ id: 'RoomSearchResult' });
export type RoomSearchResult = z.infer<typeof RoomSearchResultSchema>;

/** SPEC §4 activity types (the server records those that exist so far: see server/README "Data rooms"). */
export const ROOM_ACTIVITY_KINDS = [
  'upload',
  'download',
  'view',
  'delete',
  'edit',
  'item_restored',
  'version_download',
  'new_version',
  'classification_set',
  'classification_changed',
  'classification_deleted',
  'status_set',
  'status_changed',
  'status_removed',
  // Access changes (SPEC "access changed", "access revoked", "keys shared"): `detail` names the
  // person (email) and, for a change, the role; keys_* are an E2E room's grant and decline.
  'access_changed',
  'access_revoked',
  'keys_shared',
  'keys_declined',
] as const;
export type RoomActivityKind = (typeof ROOM_ACTIVITY_KINDS)[number];

export const RoomActivityQuerySchema = z
  .object({
    /** The folder and everything below it. */
    folderUuid: Uuid.optional(),
    /** One file (wins over folderUuid). */
    fileUuid: Uuid.optional(),
    pageSize: z.coerce.number().int().min(1).max(200).default(50),
    /** Opaque: a previous answer's `nextCursor`. */
    cursor: z.string().min(1).max(100).optional(),
  })
  .strict()
  .meta({ id: 'RoomActivityQuery' });

export const RoomActivityEntrySchema = z
  .object({
    kind: z.enum(ROOM_ACTIVITY_KINDS),
    /** Who (email address at the time). */
    actor: z.string(),
    /** Issue 32: the actor's display name now (first and last name), shown instead of the address; null: none known (no account, or no name). */
    actorName: z.string().nullable().optional(),
    item: z.object({ type: z.enum(['room', 'folder', 'file']), uuid: z.string(), name: z.string() }),
    /** E.g. the old name of a rename, the target of a move. */
    detail: z.string().nullable(),
    createdAt: z.number(),
  })
  .meta({ id: 'RoomActivityEntry' });
export type RoomActivityEntry = z.infer<typeof RoomActivityEntrySchema>;
export const RoomActivityListSchema = z
  .object({ entries: z.array(RoomActivityEntrySchema), nextCursor: z.string().nullable() })
  .meta({ id: 'RoomActivityList' });
export type RoomActivityList = z.infer<typeof RoomActivityListSchema>;

export const RoomTrashItemParamsSchema = z.object({ roomUuid: Uuid, itemUuid: Uuid }).strict();

/** A folder or file of the room moved to the trash (items inside a deleted folder come back with it). */
export const RoomTrashEntrySchema = z
  .object({
    uuid: z.string(),
    type: z.enum(['folder', 'file']),
    name: z.string(),
    deletedAt: z.number(),
    /** The deleter's e-mail address; empty when the retention job moved it or the account is gone. */
    deletedBy: z.string(),
    /** true: moved here by the room's retention policy (the trash says "Deleted by retention"). */
    deletedByRetention: z.boolean(),
    /** Issue 32: the display name of who deleted it, shown instead of the address; null: none known. */
    deletedByName: z.string().nullable().optional(),
  })
  .meta({ id: 'RoomTrashEntry' });
export type RoomTrashEntry = z.infer<typeof RoomTrashEntrySchema>;
export const RoomTrashListSchema = z.object({ entries: z.array(RoomTrashEntrySchema) }).meta({ id: 'RoomTrashList' });
export type RoomTrashList = z.infer<typeof RoomTrashListSchema>;
