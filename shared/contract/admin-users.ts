import { z } from 'zod';
import { ROLE_NAMES } from './constants';
import { LanguageSchema, UserSchema } from './user';

/**
 * POST /api/2/admin/users (ROLE_ADMIN or ROLE_USER_ADMIN), our design. The password
 * must meet the password policy (400 ValidationException otherwise); a taken username
 * or address is 409 ConflictException. The account starts unverified: the owner proves the
 * address with the code mailed at the first sign-in (or a reset or signup link); until then
 * no delivery to the address reaches it, and a delivery signup of the real owner takes it over.
 * `emailVerified` only accepts false (kept for older clients); true is 400.
 */
export const CreateUserBodySchema = z
  .object({
    email: z.string().email().max(254),
    /** Defaults to the email address. */
    username: z.string().trim().min(1).max(100).optional(),
    password: z.string().min(1).max(1024),
    firstName: z.string().max(100).optional(),
    lastName: z.string().max(100).optional(),
    /** Defaults to ROLE_UI_USER, ROLE_SENDER, ROLE_RECEIVER. */
    roleNames: z.array(z.enum(ROLE_NAMES)).max(ROLE_NAMES.length).optional(),
    language: LanguageSchema.optional(),
    emailVerified: z.literal(false).optional(),
    totpRequired: z.boolean().optional(),
    disabled: z.boolean().optional(),
  })
  .strict()
  .meta({ id: 'CreateUserBody' });
export type CreateUserBody = z.infer<typeof CreateUserBodySchema>;

export const CreateUserResponseSchema = z.object({ user: UserSchema }).meta({ id: 'CreateUserResponse' });
export type CreateUserResponse = z.infer<typeof CreateUserResponseSchema>;

/** Paths of the user administration calls (under API_BASE). */
export const ADMIN_USERS_PATHS = {
  list: '/admin/users',
  create: '/admin/users',
} as const;

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
