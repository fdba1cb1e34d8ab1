import { z } from 'zod';
import { LanguageSchema } from './user';

/**
 * Self-registration (issue 17 §1, our design; SPEC §2 "sign-up page" under /webui). Off unless an
 * administrator turns on `kuvert.signup.enabled` (System settings).
 *
 * - GET /api/2/auth/signup (public) → `{enabled}`: the login page shows the sign-up link only then.
 * - POST /api/2/auth/signup (public, 10 per client address an hour → 429) with `SignupBody`:
 *   disabled → 403 `AccessDeniedException` `metadata.reason: signupNotEnabled`. The password must
 *   meet the policy (400 `ValidationException`, `reason: passwordPolicy`). Answer 202
 *   `{}` whether or not the address is free, so the page tells nobody who has an account: a new
 *   address gets an unverified account (roles ROLE_UI_USER, ROLE_SENDER, ROLE_RECEIVER, not
 *   licensed) and the verification code by mail; a taken one gets a mail telling its owner.
 *   The owner then signs in normally; the first sign-in asks for the mailed code (code 6).
 *
 * /webui/signup (the legacy link) leads to the web client's page at /auth/signup.
 */
export const SIGNUP_PATH = '/auth/signup';
export const SIGNUP_WEB_PATH = '/auth/signup';
export const SIGNUP_SETTING_KEY = 'kuvert.signup.enabled';
/** Sign-ups per client address and hour. */
export const SIGNUP_IP_LIMIT = { limit: 10, windowMs: 60 * 60_000 } as const;

export const SignupInfoSchema = z.object({ enabled: z.boolean() }).meta({ id: 'SignupInfo' });
export type SignupInfo = z.infer<typeof SignupInfoSchema>;

export const SignupBodySchema = z
  .object({
    email: z.string().trim().toLowerCase().email().max(254),
    password: z.string().min(1).max(1024),
    firstName: z.string().trim().max(100).optional(),
    lastName: z.string().trim().max(100).optional(),
    language: LanguageSchema.optional(),
  })
  .strict()
  .meta({ id: 'SignupBody' });
export type SignupBody = z.infer<typeof SignupBodySchema>;

export const SignupResponseSchema = z.object({}).meta({ id: 'SignupResponse' });
