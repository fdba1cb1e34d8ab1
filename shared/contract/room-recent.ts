import { z } from 'zod';
import { RoomFileSchema, RoomSchema } from './rooms';

/**
 * "Shared with me" and recent files (issue 32 §2), GET /rooms/recent: the rooms other people shared
 * with the caller (a role on the room itself, the room made by someone else; plain and Secure rooms —
 * a Secure room's name is sealed, the browser opens it under Secure rooms) and the files changed
 * most recently in the plain rooms the caller can read, newest first, each with its room and path.
 * Secure rooms' files are not listed here: their names are ciphertext on the server.
 */

export const ROOM_RECENT_PATH = '/rooms/recent';
export const ROOM_RECENT_PAGE_MAX = 100;

export const RoomRecentQuerySchema = z
  .object({
    pageSize: z.coerce.number().int().min(1).max(ROOM_RECENT_PAGE_MAX).default(25),
    /** Opaque: a previous answer's `nextCursor` (then `sharedRooms` is empty). */
    cursor: z.string().min(1).max(100).optional(),
  })
  .strict()
  .meta({ id: 'RoomRecentQuery' });
export type RoomRecentQuery = z.input<typeof RoomRecentQuerySchema>;

const Step = z.object({ uuid: z.string(), name: z.string() });
const RoomRef = z.object({ uuid: z.string(), name: z.string() });

export const RoomRecentSchema = z
  .object({
    /** First page only: rooms shared with the caller, most recently shared first (at most 50). */
    sharedRooms: z.array(RoomSchema.extend({ sharedAt: z.number() })),
    /** `path`: the folders from the room's top level down to the file's folder. */
    files: z.array(RoomFileSchema.extend({ room: RoomRef, path: z.array(Step) })),
    nextCursor: z.string().nullable(),
  })
  .meta({ id: 'RoomRecent' });
export type RoomRecent = z.infer<typeof RoomRecentSchema>;
export type RoomRecentFile = RoomRecent['files'][number];
