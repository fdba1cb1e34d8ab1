import { z } from 'zod';
import { LANGUAGES, ROLE_NAMES } from './constants';

export const LanguageSchema = z.enum(LANGUAGES);

/**
 * The signed-in user as the clients see it. SPEC §3 fixes uuid, id, roleNames, language;
 * the rest is our design (DESIGN §2).
 */
export const UserSchema = z
  .object({
    uuid: z.string(),
    id: z.number().int(),
    username: z.string(),
    email: z.string(),
    firstName: z.string(),
    lastName: z.string(),
    roleNames: z.array(z.enum(ROLE_NAMES)),
    language: LanguageSchema,
    /** True once the user registered an authentication app (TOTP). */
    totpEnabled: z.boolean(),
  })
  .meta({ id: 'User' });
export type User = z.infer<typeof UserSchema>;

/** GET /user (SPEC §7): "response has user". */
export const CurrentUserResponseSchema = z.object({ user: UserSchema }).meta({ id: 'CurrentUserResponse' });
export type CurrentUserResponse = z.infer<typeof CurrentUserResponseSchema>;

/** POST /user/updateLoggedInUser body (SPEC §7): {user:{language}}. */
export const UpdateLoggedInUserBodySchema = z
  .object({ user: z.object({ language: LanguageSchema }).strict() })
  .strict()
  .meta({ id: 'UpdateLoggedInUserBody' });
export type UpdateLoggedInUserBody = z.infer<typeof UpdateLoggedInUserBodySchema>;

/** Path parameters naming one user (administration calls). */
export const UserUuidParamsSchema = z.object({ userUuid: z.string().min(1).max(100) }).strict();
