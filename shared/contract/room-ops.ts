import { z } from 'zod';
import { ROOM_SCAN_STATES } from './rooms';

/**
 * Operations on the files of plain data rooms (issue 15; server/README "Data rooms"): file
 * versions (list, download one), the inline preview (PREVIEWER and up), the folder or room as a
 * streamed ZIP, and the storage quota (SPEC §3).
 */

const Uuid = z.string().uuid();

export const RoomVersionParamsSchema = z.object({ roomUuid: Uuid, fileUuid: Uuid, versionUuid: Uuid }).strict();

/** An earlier content of a file (SPEC §1 file versions; kept 30 days after it was replaced). */
export const RoomFileVersionSchema = z
  .object({
    uuid: z.string(),
    /** 1 for the first upload, counting up. */
    version: z.number().int(),
    size: z.number().int(),
    mimeType: z.string(),
    sha256: z.string().nullable(),
    scanState: z.enum(ROOM_SCAN_STATES),
    uploadedBy: z.string(),
    /** Issue 32: the uploader's display name (absent or null: none known; plain rooms' list sends it). */
    uploadedByName: z.string().nullable().optional(),
    /** When this content was uploaded. */
    createdAt: z.number(),
    /** When a newer version replaced it; null: the current content. */
    replacedAt: z.number().nullable(),
    /** true: the file's current content (its bytes are the file's download). */
    current: z.boolean(),
  })
  .meta({ id: 'RoomFileVersion' });
export type RoomFileVersion = z.infer<typeof RoomFileVersionSchema>;

/** Newest first: the current content, then the earlier versions. */
export const RoomFileVersionListSchema = z.object({ versions: z.array(RoomFileVersionSchema) }).meta({ id: 'RoomFileVersionList' });
export type RoomFileVersionList = z.infer<typeof RoomFileVersionListSchema>;

/**
 * SPEC §3 storage quota, in bytes. `total` null: no global quota set (then `free` is what the
 * disk still takes, null when the store cannot tell). `secureRooms`: the data rooms' files with
 * their versions; `other`: everything else stored (secure mails, submit boxes, forms).
 */
export const StorageQuotaSchema = z
  .object({
    used: z.number().int(),
    total: z.number().int().nullable(),
    other: z.number().int(),
    secureRooms: z.number().int(),
    free: z.number().int().nullable(),
    /** Issue 32: the caller's own deliveries and rooms against their quota (null: none). */
    user: z.object({ used: z.number().int(), total: z.number().int().nullable() }).optional(),
    /** Issue 32, asked with `roomUuid`: that room's files, trash and versions against its quota. */
    room: z.object({ used: z.number().int(), total: z.number().int().nullable() }).optional(),
  })
  .meta({ id: 'StorageQuota' });

/**
 * Issue 32 §2: the ZIP of a selection — files and folders of one room picked in its table, as
 * comma-separated UUIDs (up to ROOM_ZIP_ITEMS_MAX: the URL stays inside common header limits, see
 * ROOM_E2E_FILES_UUIDS_MAX). Each item is checked for the caller's role: one they cannot see is a
 * 404, one they may not download a 403; below a chosen folder the usual ZIP rules hold.
 */
export const ROOM_ZIP_ITEMS_MAX = 100;
export const RoomZipQuerySchema = z
  .object({
    items: z
      .string()
      .max(ROOM_ZIP_ITEMS_MAX * 37)
      .transform((v) => v.split(','))
      .pipe(z.array(Uuid).min(1).max(ROOM_ZIP_ITEMS_MAX))
      .optional(),
  })
  .strict();

export const StorageQuotaQuerySchema = z.object({ roomUuid: Uuid.optional() }).strict();
export type StorageQuota = z.infer<typeof StorageQuotaSchema>;

/**
 * Types the preview serves inline (the web client renders each itself: web/features/rooms/preview/);
 * others answer 415 `previewNotSupported`. Media types are those file-type names from the bytes.
 */
export const ROOM_PREVIEW_TYPES = [
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/bmp',
  'application/pdf',
  'audio/mpeg',
  'audio/ogg',
  'audio/wav',
  'audio/flac',
  'audio/x-m4a',
  'audio/aac',
  'video/mp4',
  'video/webm',
  'video/ogg',
  'video/quicktime',
  'text/plain',
  'text/csv',
  'text/markdown',
  'application/json',
] as const;

/** The text kinds by file name, for files uploaded without a declared type (browsers often send none for .md). */
export const PREVIEW_TEXT_EXTENSIONS: Record<string, 'text/plain' | 'text/csv' | 'text/markdown' | 'application/json'> = {
  txt: 'text/plain',
  log: 'text/plain',
  csv: 'text/csv',
  md: 'text/markdown',
  markdown: 'text/markdown',
  json: 'application/json',
};

export const ROOM_OPS_PATHS = {
  versions: (roomUuid: string, fileUuid: string) => `/rooms/${roomUuid}/files/${fileUuid}/versions`,
  versionContent: (roomUuid: string, fileUuid: string, versionUuid: string) => `/rooms/${roomUuid}/files/${fileUuid}/versions/${versionUuid}/content`,
  preview: (roomUuid: string, fileUuid: string) => `/rooms/${roomUuid}/files/${fileUuid}/preview`,
  roomZip: (roomUuid: string) => `/rooms/${roomUuid}/zip`,
  folderZip: (roomUuid: string, folderUuid: string) => `/rooms/${roomUuid}/folders/${folderUuid}/zip`,
  quota: '/rooms/quota',
} as const;
