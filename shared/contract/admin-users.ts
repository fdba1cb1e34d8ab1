import { z } from 'zod';
import { ROLE_NAMES } from './constants';
import { LanguageSchema, UserSchema } from './user';

/**
 * POST /api/2/admin/users (ROLE_ADMIN or ROLE_USER_ADMIN), our design. Without `password` the
 * user is **invited**: the account gets an unusable password and the owner is mailed a link
 * (valid `INVITATION_TTL_MS`) to set one; following it proves the address. With `password` (API
 * scripts) it must meet the password policy (400 ValidationException otherwise). A taken username
 * or address is 409 ConflictException. The account starts unverified: the owner proves the
 * address with the invitation link, the code mailed at the first sign-in (or a reset or signup
 * link); until then no delivery to the address reaches it, and a delivery signup of the real
 * owner takes it over. `emailVerified` only accepts false (kept for older clients); true is 400.
 * Only ROLE_ADMIN grants ROLE_ADMIN or ROLE_ROOT.
 */
export const CreateUserBodySchema = z
  .object({
    email: z.string().email().max(254),
    /** Defaults to the email address. */
    username: z.string().trim().min(1).max(100).optional(),
    /** Absent: invitation mail with a set-password link. */
    password: z.string().min(1).max(1024).optional(),
    firstName: z.string().max(100).optional(),
    lastName: z.string().max(100).optional(),
    /** Defaults to ROLE_UI_USER, ROLE_SENDER, ROLE_RECEIVER. */
    roleNames: z.array(z.enum(ROLE_NAMES)).max(ROLE_NAMES.length).optional(),
    language: LanguageSchema.optional(),
    emailVerified: z.literal(false).optional(),
    totpRequired: z.boolean().optional(),
    disabled: z.boolean().optional(),
    /** Default true: the sender licence (counts against KUVERT_LICENCE_SENDERS; 409 LicenseLimitExceededException at the cap). */
    licensed: z.boolean().optional(),
  })
  .strict()
  .meta({ id: 'CreateUserBody' });
export type CreateUserBody = z.infer<typeof CreateUserBodySchema>;

export const CreateUserResponseSchema = z
  .object({
    user: UserSchema,
    /** True when an invitation mail went out (no password given). */
    invited: z.boolean(),
  })
  .meta({ id: 'CreateUserResponse' });
export type CreateUserResponse = z.infer<typeof CreateUserResponseSchema>;

/** Paths of the user administration calls (under API_BASE). */
export const ADMIN_USERS_PATHS = {
  list: '/admin/users',
  create: '/admin/users',
  /** PATCH (UpdateUserBody) and DELETE. */
  one: '/admin/users/:userUuid',
  disable: '/admin/users/:userUuid/disable',
  enable: '/admin/users/:userUuid/enable',
  invitation: '/admin/users/:userUuid/invitation',
  bannedRecipients: '/admin/banned-recipients',
  bannedRecipient: '/admin/banned-recipients/:entry',
} as const;

/** A path of ADMIN_USERS_PATHS with its parameters filled in (URL-encoded). */
export const adminUsersPath = (path: string, params: Record<string, string>): string =>
  path.replace(/:([A-Za-z]+)/g, (_m, name: string) => encodeURIComponent(params[name] ?? ''));

/** An invitation link (set-password link of an invited user) is valid this long: 7 days. */
export const INVITATION_TTL_MS = 7 * 24 * 60 * 60_000;

/**
 * PATCH /api/2/admin/users/{userUuid} (ROLE_ADMIN or ROLE_USER_ADMIN): names, language, roles.
 * Only ROLE_ADMIN touches an administrator's account or grants ROLE_ADMIN / ROLE_ROOT (403
 * AccessDeniedException); the last administrator keeps ROLE_ADMIN and nobody takes it from
 * themselves (409 ConflictException, `metadata.reason`: `lastAdmin` | `self`). Licence and
 * sender group: PATCH /admin/users/{uuid}/sender (sender-groups.ts, ROLE_ADMIN).
 */
export const UpdateUserBodySchema = z
  .object({
    firstName: z.string().max(100).optional(),
    lastName: z.string().max(100).optional(),
    language: LanguageSchema.optional(),
    roleNames: z.array(z.enum(ROLE_NAMES)).max(ROLE_NAMES.length).optional(),
  })
  .strict()
  .refine((body) => Object.keys(body).length > 0, { message: 'Nothing to change' })
  .meta({ id: 'UpdateUserBody' });
export type UpdateUserBody = z.infer<typeof UpdateUserBodySchema>;

/** `metadata.reason` of a 409 from the user administration calls. */
export const ADMIN_USER_CONFLICTS = ['self', 'lastAdmin', 'alreadyVerified'] as const;
export type AdminUserConflict = (typeof ADMIN_USER_CONFLICTS)[number];

export const UserUuidParamsSchema = z.object({ userUuid: z.string().min(1).max(100) }).strict();

/**
 * Banned recipients (SPEC §6 "can ban recipients"; setting `kuvert.delivery.bannedRecipients`):
 * GET lists, POST `{entry}` adds, DELETE …/{entry} removes (ROLE_ADMIN or ROLE_USER_ADMIN).
 * An entry is an address (`x@example.org`) or a domain (`@example.org`), stored lower-cased.
 */
export const BannedRecipientEntrySchema = z
  .string()
  .trim()
  .toLowerCase()
  .max(254)
  .refine((value) => /^[^\s@,]*@[^\s@,]+\.[^\s@,]+$/.test(value), { message: 'An address or @domain' });
export const AddBannedRecipientBodySchema = z.object({ entry: BannedRecipientEntrySchema }).strict().meta({ id: 'AddBannedRecipientBody' });
export const BannedRecipientsSchema = z.object({ entries: z.array(z.string()) }).meta({ id: 'BannedRecipients' });
/** DELETE /admin/banned-recipients/{entry}: the entry as it is listed (the server lower-cases it). */
export const BannedRecipientParamsSchema = z.object({ entry: z.string().min(1).max(254) }).strict();
export type BannedRecipients = z.infer<typeof BannedRecipientsSchema>;

/**
 * GET /api/2/admin/users?q=&page=&pageSize= (ROLE_ADMIN or ROLE_USER_ADMIN), our design:
 * users ordered by email, `q` matches email, username, first or last name (case-insensitive).
 */
export const ListUsersQuerySchema = z
  .object({
    q: z.string().max(200).optional(),
    page: z.coerce.number().int().min(1).max(1_000_000).default(1),
    pageSize: z.coerce.number().int().min(1).max(200).default(50),
  })
  .strict()
  .meta({ id: 'ListUsersQuery' });
export type ListUsersQuery = z.input<typeof ListUsersQuerySchema>;

export const AdminUserSchema = UserSchema.extend({
  disabled: z.boolean(),
  /** False until the owner proved the address (invitation link, first sign-in code, reset or signup link). */
  emailVerified: z.boolean(),
  /** The user's SecuPass state (see secupass.ts). */
  secupassState: z.enum(['none', 'active', 'reset']),
  /** A licensed sender (SPEC §3; shared/contract/sender-groups.ts). */
  licensed: z.boolean(),
  /** The user's sender group, null = the global security levels. */
  senderGroupUuid: z.string().nullable(),
}).meta({ id: 'AdminUser' });
export type AdminUser = z.infer<typeof AdminUserSchema>;

export const ListUsersResponseSchema = z
  .object({ users: z.array(AdminUserSchema), total: z.number().int(), page: z.number().int(), pageSize: z.number().int() })
  .meta({ id: 'ListUsersResponse' });
export type ListUsersResponse = z.infer<typeof ListUsersResponseSchema>;
