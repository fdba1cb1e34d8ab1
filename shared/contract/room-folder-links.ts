import { z } from 'zod';
import {
  RoomLinkSchema,
  RoomLinkTokenHeadersSchema,
  ROOM_LINK_DEFAULT_DAYS,
  ROOM_LINK_MAX_DAYS,
  ROOM_LINK_MAX_DOWNLOADS,
  ROOM_LINK_PASSWORD_MAX,
  ROOM_LINK_PASSWORD_MIN,
} from './room-links';

/**
 * Public links to a folder of a plain data room (issue 32 §2; server/README "Public links to room
 * folders"). Two kinds:
 * - `folder`: whoever holds the URL lists the folder (and its subfolders), downloads each file and
 *   a folder as one ZIP (a ZIP counts as one download towards the limit);
 * - `drop`: upload only ("file drop"): the visitor uploads files into the folder and sees nothing of
 *   its content; the files land with the activity `upload` by "public link".
 * Same password, expiry and limit rules as the file links (room-links.ts); the same token header.
 * Secure rooms have neither: the server holds no keys to read or seal their files.
 */

export const ROOM_FOLDER_LINK_KINDS = ['folder', 'drop'] as const;
export type RoomFolderLinkKind = (typeof ROOM_FOLDER_LINK_KINDS)[number];

const Uuid = z.string().uuid();

export const RoomFolderLinkParamsSchema = z.object({ roomUuid: Uuid, folderUuid: Uuid, linkUuid: Uuid }).strict();

export const CreateRoomFolderLinkBodySchema = z
  .object({
    /** `folder`: list and download; `drop`: upload only. */
    kind: z.enum(ROOM_FOLDER_LINK_KINDS),
    expiresInDays: z.number().int().min(1).max(ROOM_LINK_MAX_DAYS).default(ROOM_LINK_DEFAULT_DAYS),
    /** As for file links: epoch ms, in the future, at most ROOM_LINK_MAX_DAYS ahead. */
    expiresAt: z.number().int().positive().optional(),
    password: z.string().min(ROOM_LINK_PASSWORD_MIN).max(ROOM_LINK_PASSWORD_MAX).optional(),
    /** `folder` links only (a drop link hands nothing out: 400): complete downloads, a ZIP counting one. */
    maxDownloads: z.number().int().min(1).max(ROOM_LINK_MAX_DOWNLOADS).optional(),
  })
  .strict()
  .meta({ id: 'CreateRoomFolderLinkBody' });
export type CreateRoomFolderLinkBody = z.input<typeof CreateRoomFolderLinkBodySchema>;

export const RoomFolderLinkSchema = RoomLinkSchema.omit({ fileUuid: true })
  .extend({
    folderUuid: z.string(),
    kind: z.enum(ROOM_FOLDER_LINK_KINDS),
    /** Files committed through a drop link (0 for a folder link). */
    uploads: z.number(),
  })
  .meta({ id: 'RoomFolderLink' });
export type RoomFolderLink = z.infer<typeof RoomFolderLinkSchema>;

export const CreatedRoomFolderLinkSchema = RoomFolderLinkSchema.extend({ url: z.string() }).meta({ id: 'CreatedRoomFolderLink' });
export type CreatedRoomFolderLink = z.infer<typeof CreatedRoomFolderLinkSchema>;

export const RoomFolderLinkListSchema = z.object({ links: z.array(RoomFolderLinkSchema) }).meta({ id: 'RoomFolderLinkList' });
export type RoomFolderLinkList = z.infer<typeof RoomFolderLinkListSchema>;

export const RoomFolderLinkTokenHeadersSchema = RoomLinkTokenHeadersSchema;

/** A subfolder below the linked folder to list or zip (absent: the linked folder itself). */
export const RoomFolderLinkQuerySchema = z.object({ folderUuid: Uuid.optional() }).strict();
export const RoomFolderLinkFileParamsSchema = z.object({ fileUuid: Uuid }).strict();
export const RoomFolderLinkPartParamsSchema = RoomFolderLinkFileParamsSchema.extend({ index: z.coerce.number().int().min(0).max(1_000_000) });

const LinkedFolderSchema = z.object({ uuid: z.string(), name: z.string() });
const LinkedFileSchema = z.object({
  uuid: z.string(),
  name: z.string(),
  size: z.number(),
  mimeType: z.string(),
  updatedAt: z.number(),
  /** Only `clean` (or `notScanned`) files download; the others answer 403 as every room download. */
  scanState: z.string(),
});

/**
 * What the landing page shows. `folder` links: the listed folder (`path`: the folders from the
 * linked one down to it), its subfolders and files. `drop` links: the folder's name only — never
 * what is inside — and the upload limits.
 */
export const RoomFolderLinkInfoSchema = z
  .object({
    kind: z.enum(ROOM_FOLDER_LINK_KINDS),
    name: z.string(),
    expiresAt: z.number(),
    downloadsLeft: z.number().nullable(),
    path: z.array(LinkedFolderSchema),
    folders: z.array(LinkedFolderSchema),
    files: z.array(LinkedFileSchema),
    /** Drop links: bytes per upload part (the announce answers it again). */
    partSize: z.number().nullable(),
  })
  .meta({ id: 'RoomFolderLinkInfo' });
export type RoomFolderLinkInfo = z.infer<typeof RoomFolderLinkInfoSchema>;

/** A drop link's upload: announce name and size (a taken name gets " (2)", " (3)"…: the visitor may not learn what is there). */
export const RoomDropFileBodySchema = z
  .object({
    name: z.string().min(1).max(255),
    size: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
    mimeType: z.string().max(255).optional(),
  })
  .strict()
  .meta({ id: 'RoomDropFileBody' });
export type RoomDropFileBody = z.infer<typeof RoomDropFileBodySchema>;

/**
 * The visitor's own upload: its uuid (for the parts and the commit) and the layout. No name: the one
 * it got in the folder (" (2)" when taken) would tell the visitor what the folder holds.
 */
export const RoomDropFileSchema = z
  .object({ uuid: z.string(), size: z.number(), partSize: z.number(), partCount: z.number(), state: z.enum(['uploading', 'complete']) })
  .meta({ id: 'RoomDropFile' });
export type RoomDropFile = z.infer<typeof RoomDropFileSchema>;

export const ROOM_FOLDER_LINK_PATHS = {
  links: (roomUuid: string, folderUuid: string) => `/rooms/${roomUuid}/folders/${folderUuid}/links`,
  link: (roomUuid: string, folderUuid: string, linkUuid: string) => `/rooms/${roomUuid}/folders/${folderUuid}/links/${linkUuid}`,
  info: '/room-folder-links/by-token',
  fileContent: (fileUuid: string) => `/room-folder-links/by-token/files/${fileUuid}/content`,
  zip: '/room-folder-links/by-token/zip',
  dropFiles: '/room-folder-links/by-token/uploads',
  dropPart: (fileUuid: string, index: number) => `/room-folder-links/by-token/uploads/${fileUuid}/parts/${index}`,
  dropCommit: (fileUuid: string) => `/room-folder-links/by-token/uploads/${fileUuid}/commit`,
} as const;

/** The web's landing page of a folder or drop link; the token in the fragment, as for file links. */
export const ROOM_FOLDER_LINK_PAGE = '/room-folder-link';
export const roomFolderLinkUrl = (publicUrl: string, token: string) => `${publicUrl}${ROOM_FOLDER_LINK_PAGE}#token=${encodeURIComponent(token)}`;
