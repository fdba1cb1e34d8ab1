import type { ApiClient, BasicCredentials } from '../client';

/*
 * Pre-login endpoints of the sign-in escalations (agreed HTTP design, A2's server side).
 * Types mirror shared/contract/auth-escalation.ts.
 */

export interface CaptchaChallenge {
  captchaId: string;
  svg: string;
}
export interface TotpRegistration {
  secret: string;
  otpauthUri: string;
  qrCodeDataUrl: string;
}
export interface LoginDisclaimer {
  enabled: boolean;
  text: string;
}
export interface PasswordPolicy {
  minLength: number;
  requireUppercase: boolean;
  requireLowercase: boolean;
  requireDigit: boolean;
  requireSpecial: boolean;
}
export interface SsoInfo {
  enabled: boolean;
  url: string | null;
}

/** GET /auth/captcha: a fresh single-use challenge. */
export function getCaptcha(client: ApiClient): Promise<CaptchaChallenge> {
  return client.get<CaptchaChallenge>('/auth/captcha');
}

/** POST /auth/totp/registration with the password: a pending TOTP secret to confirm with a code. */
export function postTotpRegistration(client: ApiClient, credentials: BasicCredentials): Promise<TotpRegistration> {
  return client.post<TotpRegistration>('/auth/totp/registration', undefined, { basicAuth: credentials });
}

/** POST /auth/verification/resend with the password: mails a fresh verification code. */
export async function postVerificationResend(client: ApiClient, credentials: BasicCredentials): Promise<void> {
  await client.post('/auth/verification/resend', undefined, { basicAuth: credentials });
}

/** GET /auth/disclaimer?lang= */
export function getLoginDisclaimer(client: ApiClient, language: string): Promise<LoginDisclaimer> {
  return client.get<LoginDisclaimer>('/auth/disclaimer', { query: { lang: language } });
}

/** GET /auth/password-policy */
export function getPasswordPolicy(client: ApiClient): Promise<PasswordPolicy> {
  return client.get<PasswordPolicy>('/auth/password-policy');
}

/** GET /auth/sso: whether single sign-on is configured. */
export function getSsoInfo(client: ApiClient): Promise<SsoInfo> {
  return client.get<SsoInfo>('/auth/sso');
}

/** POST /auth/password-reset/request: always 204 (no account enumeration); 429 when rate limited. */
export async function postPasswordResetRequest(client: ApiClient, body: { email: string; language: string }): Promise<void> {
  await client.post('/auth/password-reset/request', body);
}

/** GET /auth/password-reset/{token}: resolves when the token is still valid, throws ApiError (404/410) otherwise. */
export async function getPasswordResetToken(client: ApiClient, token: string): Promise<void> {
  await client.get(`/auth/password-reset/${encodeURIComponent(token)}`);
}

/** POST /auth/password-reset/confirm: sets the new password and consumes the token. */
export async function postPasswordResetConfirm(client: ApiClient, body: { token: string; password: string }): Promise<void> {
  await client.post('/auth/password-reset/confirm', body);
}
