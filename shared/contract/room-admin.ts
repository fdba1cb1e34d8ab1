import { z } from 'zod';

/**
 * Administration of data rooms (issue 15; SPEC §1 "trash bin", §2 "Administration › secure rooms",
 * §3 "trash entry", §6 creation rule, §8 "trash restore: error naming the entry").
 *
 * Secure rooms › General: three settings of PUT /admin/settings (ROLE_ADMIN), read by the server
 * through `roomSettings(db)` (server/rooms/kind/admin-settings.ts):
 * - `kuvert.rooms.creation`: who may create rooms — `licenceOrPermission` (default, SPEC §6: a
 *   licence or the administrator's permission ROLE_SECUROOMS_CREATOR), `permissionOnly` (only
 *   holders of ROLE_SECUROOMS_CREATOR), `nobody` (no new rooms; existing ones go on).
 * - `kuvert.rooms.e2eAllowed`: end-to-end encrypted rooms may be created (default true).
 * - `kuvert.rooms.trashRetentionDays`: days a deleted room, folder or file stays in the trash
 *   before the retention job deletes it for good (default 30, 1 to 3650).
 *
 * Trash bin (ROLE_ADMIN; everyone else 403):
 * | GET  /admin/trash-bin?q&cursor&pageSize | entries of every room, newest deletion first; `q` on the name |
 * | POST /admin/trash-bin/{itemUuid}/restore | 204; the entry and everything below it are back where they were |
 * A restore that cannot be done answers 409 `ConflictException` whose message names the entry, with
 * `metadata.name` and `metadata.reason`: `parentInTrash` (the folder or room that held it is in the
 * trash itself), `nameExists` (a live sibling has the name meanwhile). Unknown or no longer trashed: 404.
 */
export const ROOM_SETTING_KEYS = {
  creation: 'kuvert.rooms.creation',
  e2eAllowed: 'kuvert.rooms.e2eAllowed',
  trashRetentionDays: 'kuvert.rooms.trashRetentionDays',
} as const;

export const ROOM_CREATION_POLICIES = ['licenceOrPermission', 'permissionOnly', 'nobody'] as const;
export type RoomCreationPolicy = (typeof ROOM_CREATION_POLICIES)[number];

export const TRASH_RETENTION_DAYS_DEFAULT = 30;
export const TRASH_RETENTION_DAYS_RANGE = [1, 3650] as const;

export const TRASH_BIN_PATHS = {
  list: '/admin/trash-bin',
  restore: (itemUuid: string) => `/admin/trash-bin/${itemUuid}/restore`,
} as const;

export const TRASH_ENTRY_TYPES = ['file', 'folder', 'dataroom'] as const;
export type TrashEntryType = (typeof TRASH_ENTRY_TYPES)[number];

export const TrashBinQuerySchema = z
  .object({
    q: z.string().max(200).optional(),
    cursor: z.string().max(200).optional(),
    pageSize: z.coerce.number().int().min(1).max(200).default(25),
  })
  .strict();
export type TrashBinQuery = z.input<typeof TrashBinQuerySchema>;

export const TrashItemParamsSchema = z.object({ itemUuid: z.string().uuid() }).strict();

/** SPEC §3 trash entry (name, type, deleted date) with who deleted it and the room it belongs to. */
export const TrashBinEntrySchema = z
  .object({
    uuid: z.string(),
    type: z.enum(TRASH_ENTRY_TYPES),
    /** Empty for an entry of an E2E room (`encrypted`): its sealed name is never sent. */
    name: z.string(),
    /** The room it belongs to (for a room: its own name); empty for an E2E room. */
    roomName: z.string(),
    /** true: an entry of an end-to-end encrypted room (the web shows "Encrypted item"). */
    encrypted: z.boolean(),
    deletedAt: z.number(),
    /** Email of who deleted it; empty when the account is gone. */
    deletedBy: z.string(),
    /** true: a file the room's retention policy moved here (no person deleted it; the web says "Deleted by retention"). */
    deletedByRetention: z.boolean(),
  })
  .meta({ id: 'TrashBinEntry' });
export type TrashBinEntry = z.infer<typeof TrashBinEntrySchema>;

export const TrashBinListSchema = z
  .object({ entries: z.array(TrashBinEntrySchema), nextCursor: z.string().nullable() })
  .meta({ id: 'TrashBinList' });
export type TrashBinList = z.infer<typeof TrashBinListSchema>;
