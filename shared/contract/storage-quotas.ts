import { z } from 'zod';

/**
 * Storage quotas per room and per user (issue 32; SPEC §3 storage quota, §8 "storage quota
 * exceeded"; server/README "Storage quotas"). Bytes; null = no quota.
 *
 * - A room's quota counts its files (in the trash too) and their earlier versions, plain and
 *   Secure rooms alike (the server knows the ciphertext's size).
 * - A user's quota counts the deliveries they sent that still hold bytes and the rooms they
 *   created. Each user may have an override; otherwise the setting `kuvert.storage.userQuota`
 *   (0 = none) applies.
 * - An upload that does not fit answers 507 `GlobalQuotaReachedException` with
 *   `metadata.spaceAvailable`/`spaceRequired` and `metadata.quota`: `room` or `user` (none: the
 *   global quota or the disk).
 *
 * Administration (ROLE_ADMIN; everyone else 403):
 * | GET /admin/storage-quotas/rooms?q | rooms with used bytes and quota (names of Secure rooms never sent) |
 * | PUT /admin/rooms/{roomUuid}/storage-quota | `{ quota }` → the room's row |
 * | GET, PUT /admin/users/{userUuid}/storage-quota | `{ quota }` → the user's used, override and quota in force |
 */
export const USER_QUOTA_SETTING_KEY = 'kuvert.storage.userQuota';

/** From this share of a quota on, the quota view and the upload/send pages warn (issue 32 §3). */
export const QUOTA_WARNING_RATIO = 0.9;

/** 1 PiB: more than any store holds; a larger figure is a typing error. */
export const QUOTA_MAX_BYTES = 2 ** 50;

export const QUOTA_SCOPES = ['room', 'user'] as const;
export type QuotaScope = (typeof QUOTA_SCOPES)[number];

export const StorageQuotaBodySchema = z
  .object({ quota: z.number().int().min(0).max(QUOTA_MAX_BYTES).nullable() })
  .strict()
  .meta({ id: 'StorageQuotaBody' });
export type StorageQuotaBody = z.infer<typeof StorageQuotaBodySchema>;

export const RoomQuotaParamsSchema = z.object({ roomUuid: z.string().uuid() }).strict();
export const UserQuotaParamsSchema = z.object({ userUuid: z.string().max(64) }).strict();

export const RoomQuotaQuerySchema = z.object({ q: z.string().max(200).optional() }).strict();

export const RoomQuotaRowSchema = z
  .object({
    uuid: z.string(),
    /** Empty for a Secure room (its sealed name is never sent). */
    name: z.string(),
    encrypted: z.boolean(),
    /** Email of who created it (whose user quota it counts against); empty when the account is gone. */
    owner: z.string(),
    used: z.number().int(),
    quota: z.number().int().nullable(),
  })
  .meta({ id: 'RoomQuotaRow' });
export type RoomQuotaRow = z.infer<typeof RoomQuotaRowSchema>;

export const RoomQuotaListSchema = z.object({ rooms: z.array(RoomQuotaRowSchema) }).meta({ id: 'RoomQuotaList' });
export type RoomQuotaList = z.infer<typeof RoomQuotaListSchema>;

export const UserQuotaSchema = z
  .object({
    used: z.number().int(),
    /** The user's own override; null: the default applies. */
    quota: z.number().int().nullable(),
    /** The quota in force (override or default); null: none. */
    effective: z.number().int().nullable(),
  })
  .meta({ id: 'UserQuota' });
export type UserQuota = z.infer<typeof UserQuotaSchema>;

/** true when `used` has reached the warning share of `total` (no quota: never). */
export const quotaNearlyFull = (used: number, total: number | null): boolean => total !== null && used >= total * QUOTA_WARNING_RATIO;
