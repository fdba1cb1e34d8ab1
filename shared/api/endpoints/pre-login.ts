import {
  AUTH_ESCALATION_PATHS as PATHS,
  type CaptchaResponse,
  type DisclaimerResponse,
  type PasswordPolicy,
  type PasswordResetConfirmBody,
  type PasswordResetRequestBody,
  type SsoInfo,
  type TotpRegistrationResponse,
} from '@shared/contract/auth-escalation';
import type { ApiClient, BasicCredentials } from '../client';

/** Pre-login endpoints of the sign-in escalations and password reset (shared/contract/auth-escalation.ts). */

/** GET /auth/captcha: a fresh single-use challenge. */
export function getCaptcha(client: ApiClient): Promise<CaptchaResponse> {
  return client.get<CaptchaResponse>(PATHS.captcha);
}

/**
 * POST /auth/totp/registration with the password: a pending TOTP secret to confirm with a code.
 * After repeated failed sign-ins it needs a captcha answer like POST /auth.
 */
export function postTotpRegistration(
  client: ApiClient,
  credentials: BasicCredentials,
  captcha?: { j_captcha: string; j_captcha_id: string } | null,
): Promise<TotpRegistrationResponse> {
  return client.post<TotpRegistrationResponse>(PATHS.totpRegistration, undefined, { basicAuth: credentials, ...(captcha ? { query: captcha } : {}) });
}

/** POST /auth/verification/resend with the password: mails a fresh verification code. */
export async function postVerificationResend(
  client: ApiClient,
  credentials: BasicCredentials,
  captcha?: { j_captcha: string; j_captcha_id: string } | null,
): Promise<void> {
  await client.post(PATHS.verificationResend, undefined, { basicAuth: credentials, ...(captcha ? { query: captcha } : {}) });
}

/** GET /auth/disclaimer?lang= */
export function getLoginDisclaimer(client: ApiClient, language: string): Promise<DisclaimerResponse> {
  return client.get<DisclaimerResponse>(PATHS.disclaimer, { query: { lang: language } });
}

/** GET /auth/password-policy */
export function getPasswordPolicy(client: ApiClient): Promise<PasswordPolicy> {
  return client.get<PasswordPolicy>(PATHS.passwordPolicy);
}

/** GET /auth/sso: whether single sign-on is configured. */
export function getSsoInfo(client: ApiClient): Promise<SsoInfo> {
  return client.get<SsoInfo>(PATHS.sso);
}

/** POST /auth/password-reset/request: always 204 (no account enumeration); 429 when rate limited. */
export async function postPasswordResetRequest(client: ApiClient, body: PasswordResetRequestBody): Promise<void> {
  await client.post(PATHS.passwordResetRequest, body);
}

/**
 * POST /auth/password-reset/check: resolves when the token is still valid, throws ApiError (404/410)
 * otherwise. The token goes in the body: request paths end up in server and proxy logs.
 */
export async function getPasswordResetToken(client: ApiClient, token: string): Promise<void> {
  await client.post(PATHS.passwordResetCheck, { token });
}

/** POST /auth/password-reset/confirm: sets the new password and consumes the token. */
export async function postPasswordResetConfirm(client: ApiClient, body: PasswordResetConfirmBody): Promise<void> {
  await client.post(PATHS.passwordResetConfirm, body);
}
