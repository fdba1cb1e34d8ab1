import { z } from 'zod';

/**
 * Licence caps and counts (SPEC §6 "license counts", issue 17 §2). The caps are operator
 * settings of the server (`KUVERT_LICENCE_SENDERS`, `KUVERT_LICENCE_DATAROOM_CREATORS`,
 * `KUVERT_LICENCE_ACTIVE_FORMS`; unset = no cap); nothing is asked of a licence server.
 *
 * - `senders`: accounts with the sender licence (`licensed`, PATCH /admin/users/{uuid}/sender).
 * - `dataRoomCreators`: accounts holding ROLE_SECUROOMS_CREATOR.
 * - `activeForms`: active web forms (server/forms; no holders listed).
 *
 * Disabled accounts keep what they hold and count (revoke the licence or the role to free a seat).
 * A grant beyond a cap is refused with 409 `LicenseLimitExceededException` and
 * `metadata: LicenceLimitMetadata`; lowering a cap below the count takes nothing away — the
 * page shows the overuse and new grants wait until the count is below the cap.
 */
export const LICENCE_KINDS = ['senders', 'dataRoomCreators', 'activeForms'] as const;
export type LicenceKind = (typeof LICENCE_KINDS)[number];

/** The §8 error class of a refused grant. */
export const LICENCE_LIMIT_ERROR = 'LicenseLimitExceededException' as const;

/** Holders listed per licence at most (the count covers all of them). */
export const LICENCE_HOLDERS_SHOWN = 200;

export const LicenceHolderSchema = z
  .object({
    uuid: z.string(),
    email: z.string(),
    firstName: z.string(),
    lastName: z.string(),
    /** Always false now: a disabled account holds no licence (kept for older clients). */
    disabled: z.boolean(),
    /** false: invited, the address not yet proven (the users page's "Invited"). */
    emailVerified: z.boolean(),
  })
  .meta({ id: 'LicenceHolder' });
export type LicenceHolder = z.infer<typeof LicenceHolderSchema>;

export const LicenceCountSchema = z
  .object({
    kind: z.enum(LICENCE_KINDS),
    /** null = no cap set by the operator. */
    cap: z.number().int().nonnegative().nullable(),
    used: z.number().int().nonnegative(),
    /** False when the feature counted does not exist on this server (kept for older servers; always true now). */
    available: z.boolean(),
    /** Up to LICENCE_HOLDERS_SHOWN holders, ordered by address. */
    holders: z.array(LicenceHolderSchema),
  })
  .meta({ id: 'LicenceCount' });
export type LicenceCount = z.infer<typeof LicenceCountSchema>;

/** GET /admin/licence (ROLE_ADMIN, ROLE_USER_ADMIN). */
export const LicenceOverviewSchema = z.object({ licences: z.array(LicenceCountSchema) }).meta({ id: 'LicenceOverview' });
export type LicenceOverview = z.infer<typeof LicenceOverviewSchema>;

/** `metadata` of 409 LicenseLimitExceededException: which licence, its cap, how many hold it, how many more were asked for. */
export interface LicenceLimitMetadata {
  licence: LicenceKind;
  cap: number;
  used: number;
  requested: number;
}
