import { z } from 'zod';
import { LanguageSchema } from './user';

/**
 * Sign-in escalations and password reset (our design, SPEC §2 authentication area, §4, §8;
 * DESIGN §9). All paths are under `/api/2`. The pre-login calls are exempt from the
 * anti-forgery header: they carry Basic credentials or are public and rate limited.
 */
export const AUTH_ESCALATION_PATHS = {
  /** GET → CaptchaResponse. */
  captcha: '/auth/captcha',
  /** POST with Basic credentials → TotpRegistrationResponse. */
  totpRegistration: '/auth/totp/registration',
  /** POST with Basic credentials → 204; 429 when resent too often. */
  verificationResend: '/auth/verification/resend',
  /** GET `?lang=` → DisclaimerResponse. */
  disclaimer: '/auth/disclaimer',
  /** GET → PasswordPolicy. */
  passwordPolicy: '/auth/password-policy',
  /** GET → SsoInfo. */
  sso: '/auth/sso',
  /** POST PasswordResetRequestBody → 204 always; 429 RateLimitExceededException. */
  passwordResetRequest: '/auth/password-reset/request',
  /**
   * POST PasswordResetCheckBody → 204 valid, 404 unknown, 410 used or expired. The token travels
   * in the body, never in the path: request paths are logged.
   */
  passwordResetCheck: '/auth/password-reset/check',
  /**
   * POST PasswordResetConfirmBody → 204, or 400 ValidationException whose `metadata` is
   * `{ reason: 'token' }` (unknown, used or expired link) or
   * `{ reason: 'policy', violations: PasswordPolicyViolation[] }`.
   */
  passwordResetConfirm: '/auth/password-reset/confirm',
  /**
   * POST OwnTotpResetBody, signed in + anti-forgery header → 204. Disables the caller's own TOTP;
   * re-authentication: the password and a current code, else 400 ValidationException with
   * `metadata.reason` `currentPassword` or `code`; 409 when none is registered; 429 after 5 misses.
   */
  ownTotpReset: '/user/totp/reset',
  /**
   * POST OwnTotpRegistrationBody (the password), signed in → TotpRegistrationResponse; starts
   * registering an authentication app from the account settings. 409 when one is registered.
   */
  ownTotpRegistration: '/user/totp/registration',
  /** POST OwnTotpConfirmBody, signed in → 204: the code proves the app; TOTP is on from now. */
  ownTotpConfirm: '/user/totp/confirm',
  /**
   * POST, ROLE_ADMIN or ROLE_USER_ADMIN (only ROLE_ADMIN for an administrator) → 204: removes a
   * user's authentication app (lost phone); audit entry `totp.reset`.
   */
  adminTotpReset: '/admin/users/:userUuid/totp/reset',
  /**
   * POST ChangePasswordBody, signed in + anti-forgery header → 204, or 400 ValidationException
   * with `metadata` `{ reason: 'currentPassword' }` or `{ reason: 'policy', violations }`.
   */
  ownPasswordChange: '/user/password',
} as const;

/** Web client route the password reset mail links to: `{publicUrl}/auth/reset-password?token=...`. */
export const PASSWORD_RESET_WEB_PATH = '/auth/reset-password';
/** Query flag of an invitation's set-password link (`?invitation=1#token=…`): the page speaks of a first password. Wording only; the token decides. */
export const PASSWORD_LINK_INVITATION_FLAG = 'invitation';

/** A captcha lives 10 minutes and is answered once (DESIGN §9). */
export const CAPTCHA_TTL_MS = 10 * 60_000;
/** A reset link lives 60 minutes: long enough to reach the mailbox, short against leaked mail. */
export const PASSWORD_RESET_TTL_MS = 60 * 60_000;
/** Email verification code: 6 digits, valid 15 minutes. */
export const VERIFICATION_CODE_LENGTH = 6;
export const VERIFICATION_CODE_TTL_MS = 15 * 60_000;

export const CaptchaResponseSchema = z
  .object({
    /** Send back as `j_captcha_id` with the answer in `j_captcha` on POST /auth. */
    captchaId: z.string(),
    /** Self-contained SVG markup (no external references). */
    svg: z.string(),
  })
  .meta({ id: 'CaptchaResponse' });
export type CaptchaResponse = z.infer<typeof CaptchaResponseSchema>;

export const TotpRegistrationResponseSchema = z
  .object({
    /** Base32 secret for manual entry in the authentication app. */
    secret: z.string(),
    /** `otpauth://totp/...` URI (SHA1, 6 digits, 30 s). */
    otpauthUri: z.string(),
    /** `data:image/png;base64,...` QR code of `otpauthUri`. */
    qrCodeDataUrl: z.string(),
  })
  .meta({ id: 'TotpRegistrationResponse' });
export type TotpRegistrationResponse = z.infer<typeof TotpRegistrationResponseSchema>;

export const DisclaimerQuerySchema = z.object({ lang: z.string().max(35).optional() }).meta({ id: 'DisclaimerQuery' });
export type DisclaimerQuery = z.infer<typeof DisclaimerQuerySchema>;

export const DisclaimerResponseSchema = z
  .object({
    enabled: z.boolean(),
    /** Plain text in the requested language (falls back to English, then empty). */
    text: z.string(),
  })
  .meta({ id: 'DisclaimerResponse' });
export type DisclaimerResponse = z.infer<typeof DisclaimerResponseSchema>;

export const PasswordPolicySchema = z
  .object({
    minLength: z.number().int().positive(),
    requireUppercase: z.boolean(),
    requireLowercase: z.boolean(),
    requireDigit: z.boolean(),
    requireSpecial: z.boolean(),
  })
  .meta({ id: 'PasswordPolicy' });
export type PasswordPolicy = z.infer<typeof PasswordPolicySchema>;

/** Names of the rules a password breaks; the client maps each to a message. */
export const PASSWORD_POLICY_VIOLATIONS = ['minLength', 'uppercase', 'lowercase', 'digit', 'special'] as const;
export type PasswordPolicyViolation = (typeof PASSWORD_POLICY_VIOLATIONS)[number];

/** Pure check, used by the server and the web client alike. Returns the broken rules (empty = ok). */
export function checkPasswordPolicy(password: string, policy: PasswordPolicy): PasswordPolicyViolation[] {
  const broken: PasswordPolicyViolation[] = [];
  if ([...password].length < policy.minLength) broken.push('minLength');
  if (policy.requireUppercase && !/\p{Lu}/u.test(password)) broken.push('uppercase');
  if (policy.requireLowercase && !/\p{Ll}/u.test(password)) broken.push('lowercase');
  if (policy.requireDigit && !/\p{Nd}/u.test(password)) broken.push('digit');
  if (policy.requireSpecial && !/[^\p{L}\p{Nd}]/u.test(password)) broken.push('special');
  return broken;
}

export const SsoInfoSchema = z
  .object({
    enabled: z.boolean(),
    /** Where the SSO button leads; null when disabled. */
    url: z.string().nullable(),
  })
  .meta({ id: 'SsoInfo' });
export type SsoInfo = z.infer<typeof SsoInfoSchema>;

export const PasswordResetRequestBodySchema = z
  .object({
    email: z.string().trim().max(254),
    /** Language of the mail when the address is unknown to us; a known user's own language wins. */
    language: LanguageSchema.optional(),
  })
  .strict()
  .meta({ id: 'PasswordResetRequestBody' });
export type PasswordResetRequestBody = z.infer<typeof PasswordResetRequestBodySchema>;

export const PasswordResetCheckBodySchema = z
  .object({ token: z.string().min(1).max(128) })
  .strict()
  .meta({ id: 'PasswordResetCheckBody' });
export type PasswordResetCheckBody = z.infer<typeof PasswordResetCheckBodySchema>;

export const OwnTotpResetBodySchema = z
  .object({
    password: z.string().min(1).max(1024),
    /** A current code of the app being removed (whitespace allowed). */
    code: z.string().min(1).max(16),
  })
  .strict()
  .meta({ id: 'OwnTotpResetBody' });
export type OwnTotpResetBody = z.infer<typeof OwnTotpResetBodySchema>;

export const OwnTotpRegistrationBodySchema = z
  .object({ password: z.string().min(1).max(1024) })
  .strict()
  .meta({ id: 'OwnTotpRegistrationBody' });
export type OwnTotpRegistrationBody = z.infer<typeof OwnTotpRegistrationBodySchema>;

export const OwnTotpConfirmBodySchema = z
  .object({ code: z.string().min(1).max(16) })
  .strict()
  .meta({ id: 'OwnTotpConfirmBody' });
export type OwnTotpConfirmBody = z.infer<typeof OwnTotpConfirmBodySchema>;

export const PasswordResetConfirmBodySchema = z
  .object({
    token: z.string().min(1).max(128),
    password: z.string().min(1).max(1024),
  })
  .strict()
  .meta({ id: 'PasswordResetConfirmBody' });
export type PasswordResetConfirmBody = z.infer<typeof PasswordResetConfirmBodySchema>;

export const ChangePasswordBodySchema = z
  .object({
    currentPassword: z.string().min(1).max(1024),
    newPassword: z.string().min(1).max(1024),
  })
  .strict()
  .meta({ id: 'ChangePasswordBody' });
export type ChangePasswordBody = z.infer<typeof ChangePasswordBodySchema>;
