import { z } from 'zod';
import { UserSchema } from './user';

/** Response header carrying the fresh anti-forgery value on login (SPEC §7). */
export const ANTI_CSRF_HEADER = 'anticsrfattr';

/**
 * A cookie the browser's scripts may read, set and cleared with the (HttpOnly) session cookie: it
 * holds no secret ("1"), only tells the web client that a session may exist. Without it (and without
 * a stored anti-forgery value) the client knows nobody is signed in and does not ask GET /user, whose
 * 401 Chromium would print as a red console error on every first load of the sign-in page (issue 32;
 * web/README "Expected answers in the console").
 */
export const SIGNED_IN_HINT_COOKIE = 'KUVERT_SIGNED_IN';

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

/**
 * Our design (DESIGN §2): the Outlook add-in signs in with this request header on POST /auth
 * and gets a bearer session token instead of a cookie (Outlook's web views partition or block
 * cookies). It then sends `Authorization: Bearer <token>`; the logout endpoint revokes it.
 */
export const ADDIN_CLIENT_HEADER = 'x-kuvert-client';
export const ADDIN_CLIENT_VALUE = 'outlook-addin';
/**
 * POST (cookie session + anti-forgery header, ROLE_OUTLOOK): trades the web session for an
 * add-in bearer token `{ sessionToken }` — the Office dialog of the web sign-in (captcha, SSO)
 * hands it to the task pane. The web session stays as it is.
 */
export const ADDIN_SESSION_EXCHANGE_PATH = '/auth/addin-session';

/** POST /auth answer (SPEC §7): "response has data.user and header anticsrfattr". */
export const LoginResponseSchema = z
  .object({
    data: z.object({
      user: UserSchema,
      /** Add-in sign-ins only (ADDIN_CLIENT_HEADER): the bearer session token. Secret: never log it. */
      sessionToken: z.string().optional(),
    }),
  })
  .meta({ id: 'LoginResponse' });
export type LoginResponse = z.infer<typeof LoginResponseSchema>;
