import { AUTH_ESCALATION_ENDPOINTS as E } from '@shared/contract/endpoints/auth-escalation';
import {
  type CaptchaResponse,
  type DisclaimerResponse,
  type PasswordPolicy,
  type PasswordResetConfirmBody,
  type PasswordResetRequestBody,
  type SsoInfo,
  type TotpRegistrationResponse,
} from '@shared/contract/auth-escalation';
import { call } from '../call';
import type { ApiClient, BasicCredentials } from '../client';

/** Pre-login endpoints of the sign-in escalations and password reset (shared/contract/auth-escalation.ts). */

/** GET /auth/captcha: a fresh single-use challenge. */
export function getCaptcha(client: ApiClient): Promise<CaptchaResponse> {
  return call(client, E.captcha, {});
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
  return call(client, E.totpRegistration, captcha ? { query: captcha } : {}, { basicAuth: credentials });
}

/** POST /auth/verification/resend with the password: mails a fresh verification code. */
export async function postVerificationResend(
  client: ApiClient,
  credentials: BasicCredentials,
  captcha?: { j_captcha: string; j_captcha_id: string } | null,
): Promise<void> {
  await call(client, E.verificationResend, captcha ? { query: captcha } : {}, { basicAuth: credentials });
}

/** GET /auth/disclaimer?lang= */
export function getLoginDisclaimer(client: ApiClient, language: string): Promise<DisclaimerResponse> {
  return call(client, E.disclaimer, { query: { lang: language } });
}

/** GET /auth/password-policy */
export function getPasswordPolicy(client: ApiClient): Promise<PasswordPolicy> {
  return call(client, E.passwordPolicy, {});
}

/** GET /auth/sso: whether single sign-on is configured. */
export function getSsoInfo(client: ApiClient): Promise<SsoInfo> {
  return call(client, E.sso, {});
}

/** POST /auth/password-reset/request: always 204 (no account enumeration); 429 when rate limited. */
export async function postPasswordResetRequest(client: ApiClient, body: PasswordResetRequestBody): Promise<void> {
  await call(client, E.passwordResetRequest, { body });
}

/**
 * POST /auth/password-reset/check: resolves when the token is still valid, throws ApiError (404/410)
 * otherwise. The token goes in the body: request paths end up in server and proxy logs.
 */
export async function getPasswordResetToken(client: ApiClient, token: string): Promise<void> {
  await call(client, E.passwordResetCheck, { body: { token } });
}

/** POST /auth/password-reset/confirm: sets the new password and consumes the token. */
export async function postPasswordResetConfirm(client: ApiClient, body: PasswordResetConfirmBody): Promise<void> {
  await call(client, E.passwordResetConfirm, { body });
}
