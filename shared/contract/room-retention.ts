import { z } from 'zod';

/**
 * A data room's retention policy (issue 31 §2; SPEC §2 "retention policy editor", §3 "retention
 * deletion period in days", §4 "files beyond the new period are deleted at end of day", §5 "every
 * confirmation box ticked", "at or above a minimum"; server/README "Room retention").
 *
 * | GET /rooms/{roomUuid}/retention | any member | the period in force and a change waiting for the end of the day |
 * | PUT /rooms/{roomUuid}/retention | OWNER | `{periodDays, confirmations}`: the change, effective at the end of today (server's local day) |
 * | GET /rooms/{roomUuid}/retention/preview?periodDays | OWNER | the files that period would move to the trash at the next end of day |
 *
 * `periodDays: null` is "no retention" (the default). At the end of each day the retention job moves
 * every file of the room whose last change is older than the period to the room's trash (activity
 * `delete`, detail `retention`). Plain and Secure rooms alike: the server moves rows, it reads no name.
 */
export const ROOM_RETENTION_PATHS = {
  policy: (roomUuid: string) => `/rooms/${roomUuid}/retention`,
  preview: (roomUuid: string) => `/rooms/${roomUuid}/retention/preview`,
} as const;

/** Administration › Secure rooms › General: the smallest period an OWNER may set (days). */
export const ROOM_RETENTION_MIN_DAYS_KEY = 'kuvert.rooms.retentionMinDays';
export const ROOM_RETENTION_MIN_DAYS_DEFAULT = 7;
export const ROOM_RETENTION_MIN_DAYS_RANGE = [1, 3650] as const;
/** The longest period (100 years: "keep" in practice). */
export const ROOM_RETENTION_MAX_DAYS = 36_500;

/** The boxes of the editor (SPEC §5): every one must be ticked, the server checks them too. */
export const RETENTION_CONFIRMATIONS = ['movesToTrash', 'allMembers', 'endOfDay'] as const;
export type RetentionConfirmation = (typeof RETENTION_CONFIRMATIONS)[number];
/** SPEC §5, verbatim: a change without every box ticked (400 `ValidationException`, `metadata.field` `confirmations`). */
export const RETENTION_CONFIRMATIONS_MESSAGE = 'You must accept all information to be able to continue';
/** A period below the administrator's minimum: 400 `ValidationException`, `metadata.reason` `belowMinimum`, `metadata.minimum`. */
export const RETENTION_BELOW_MINIMUM = 'belowMinimum';
/** `detail` of the `delete` activity the end-of-day job writes (its `actor` is empty: no user did it). */
export const RETENTION_ACTIVITY_DETAIL = 'retention';
/** Files listed by the preview at most (`count` tells all). */
export const RETENTION_PREVIEW_LIMIT = 100;

const PeriodDays = z.number().int().min(1).max(ROOM_RETENTION_MAX_DAYS);

export const RoomRetentionSchema = z
  .object({
    /** The period in force today; null: no retention. */
    periodDays: PeriodDays.nullable(),
    /** A change made today: in force from `effectiveFrom` (the start of the server's next local day, epoch ms). */
    pending: z.object({ periodDays: PeriodDays.nullable(), effectiveFrom: z.number() }).nullable(),
    /** The administrator's minimum (days). */
    minimumDays: z.number().int(),
  })
  .meta({ id: 'RoomRetention' });
export type RoomRetention = z.infer<typeof RoomRetentionSchema>;

export const RoomRetentionUpdateSchema = z
  .object({
    periodDays: PeriodDays.nullable(),
    /** The ticked boxes (RETENTION_CONFIRMATIONS), all of them. */
    confirmations: z.array(z.enum(RETENTION_CONFIRMATIONS)).max(RETENTION_CONFIRMATIONS.length),
  })
  .strict()
  .meta({ id: 'RoomRetentionUpdate' });
export type RoomRetentionUpdate = z.infer<typeof RoomRetentionUpdateSchema>;

export const RoomRetentionPreviewQuerySchema = z.object({ periodDays: z.coerce.number().int().min(1).max(ROOM_RETENTION_MAX_DAYS) }).strict();

export const RoomRetentionPreviewSchema = z
  .object({
    /** Every file the period would move at the next end of day. */
    count: z.number().int(),
    /** The first RETENTION_PREVIEW_LIMIT of them, oldest change first; `name` sealed in a Secure room (the browser opens it). */
    files: z.array(z.object({ uuid: z.string(), name: z.string(), modifiedAt: z.number() })),
  })
  .meta({ id: 'RoomRetentionPreview' });
export type RoomRetentionPreview = z.infer<typeof RoomRetentionPreviewSchema>;
