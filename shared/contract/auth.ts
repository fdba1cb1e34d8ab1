import { z } from 'zod';
import { UserSchema } from './user';

/** Response header carrying the fresh anti-forgery value on login (SPEC §7). */
export const ANTI_CSRF_HEADER = 'anticsrfattr';

/** Query of POST /auth (SPEC §7). The code has its whitespace removed before checking. */
export const LoginQuerySchema = z
  .object({
    j_auth_app_code: z.string().max(64).optional(),
    j_login_disclaimer_accepted: z.enum(['true', 'false']).optional(),
    /** Our design: captcha answer and id, and the email verification code (SPEC §4 escalations). */
    j_captcha: z.string().max(64).optional(),
    j_captcha_id: z.string().max(128).optional(),
    j_verification_code: z.string().max(64).optional(),
  })
  .strict()
  .meta({ id: 'LoginQuery' });
export type LoginQuery = z.infer<typeof LoginQuerySchema>;

/** POST /auth answer (SPEC §7): "response has data.user and header anticsrfattr". */
export const LoginResponseSchema = z
  .object({ data: z.object({ user: UserSchema }) })
  .meta({ id: 'LoginResponse' });
export type LoginResponse = z.infer<typeof LoginResponseSchema>;
