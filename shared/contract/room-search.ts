import { z } from 'zod';
import { RoomFileSchema, RoomFolderSchema, RoomSchema } from './rooms';

/**
 * Search across every plain data room the caller can see (issue 15 "search across the rooms the
 * caller can see"; SPEC §2 search results): rooms, folders and complete files whose name contains
 * `q` (case-insensitive), each with its room and its path, so a hit opens its folder. End-to-end
 * encrypted rooms are not searched here: their names are ciphertext on the server (the browser
 * searches them over decrypted names).
 */

const Step = z.object({ uuid: z.string(), name: z.string() });
const RoomRef = z.object({ uuid: z.string(), name: z.string() });

export const RoomsSearchQuerySchema = z
  .object({ q: z.string().trim().min(1).max(200), pageSize: z.coerce.number().int().min(1).max(200).default(50) })
  .strict()
  .meta({ id: 'RoomsSearchQuery' });

export const RoomsSearchResultSchema = z
  .object({
    /** Rooms where the caller has a role on the room itself. */
    rooms: z.array(RoomSchema),
    /** `path`: the folders from the room's top level down to the folder's parent. */
    folders: z.array(RoomFolderSchema.extend({ room: RoomRef, path: z.array(Step) })),
    /** `path`: the folders from the room's top level down to the file's folder. */
    files: z.array(RoomFileSchema.extend({ room: RoomRef, path: z.array(Step) })),
    /** true: more hits than `pageSize` of some kind; a longer `q` narrows them. */
    truncated: z.boolean(),
  })
  .meta({ id: 'RoomsSearchResult' });
export type RoomsSearchResult = z.infer<typeof RoomsSearchResultSchema>;
export type RoomsSearchFolderHit = RoomsSearchResult['folders'][number];
export type RoomsSearchFileHit = RoomsSearchResult['files'][number];
