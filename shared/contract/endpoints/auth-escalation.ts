import { z } from 'zod';
import { UserUuidParamsSchema } from '../user';
import {
  CaptchaResponseSchema,
  ChangePasswordBodySchema,
  DisclaimerQuerySchema,
  DisclaimerResponseSchema,
  OwnTotpConfirmBodySchema,
  OwnTotpRegistrationBodySchema,
  OwnTotpResetBodySchema,
  PasswordPolicySchema,
  PasswordResetCheckBodySchema,
  PasswordResetConfirmBodySchema,
  PasswordResetRequestBodySchema,
  SsoInfoSchema,
  TotpRegistrationResponseSchema,
} from '../auth-escalation';
import { endpointArea, NoContentSchema } from '../endpoint';

/** Captcha answer of a sign-in escalation call (the legacy parameter names). */
const CredentialsQuerySchema = z
  .object({ j_captcha: z.string().max(64).optional(), j_captcha_id: z.string().max(128).optional() })
  .strict();

const escalation = endpointArea({ tag: 'auth', access: 'public' });

/** Sign-in escalations (captcha, two-factor, verification, disclaimer), password reset and change, two-factor management. */
export const AUTH_ESCALATION_ENDPOINTS = {
  captcha: escalation.get('/auth/captcha', 'getCaptcha', 'A new single-use captcha (10 minutes)', {
    response: { 200: CaptchaResponseSchema }, errors: [429],
  }),
  totpRegistration: escalation.post('/auth/totp/registration', 'registerTotpAtSignIn', 'Starts authentication app registration (Basic credentials); the next POST /auth with a code confirms it', {
    query: CredentialsQuerySchema, response: { 200: TotpRegistrationResponseSchema }, errors: [400, 401, 403, 409, 429],
  }),
  verificationResend: escalation.post('/auth/verification/resend', 'resendVerificationCode', 'Mails a fresh email verification code (Basic credentials)', {
    query: CredentialsQuerySchema, response: { 204: NoContentSchema }, errors: [400, 401, 403, 429],
  }),
  disclaimer: escalation.get('/auth/disclaimer', 'getDisclaimer', 'The login disclaimer in the requested language', {
    query: DisclaimerQuerySchema, response: { 200: DisclaimerResponseSchema }, errors: [],
  }),
  passwordPolicy: escalation.get('/auth/password-policy', 'getPasswordPolicy', 'The password policy', {
    response: { 200: PasswordPolicySchema }, errors: [],
  }),
  sso: escalation.get('/auth/sso', 'getSsoOptions', 'Whether single sign-on is configured, and where it starts', {
    response: { 200: SsoInfoSchema }, errors: [],
  }),
  passwordResetRequest: escalation.post('/auth/password-reset/request', 'requestPasswordReset', 'Mails a password reset link when the address has an account; 204 either way', {
    body: PasswordResetRequestBodySchema, response: { 204: NoContentSchema }, errors: [400, 429],
  }),
  passwordResetConfirm: escalation.post('/auth/password-reset/confirm', 'confirmPasswordReset', 'Sets a new password with a reset token; ends every session of the user', {
    body: PasswordResetConfirmBodySchema, response: { 204: NoContentSchema }, errors: [400],
  }),
  passwordResetCheck: escalation.post('/auth/password-reset/check', 'checkPasswordReset', 'Whether a reset token is still usable: 204, 404 unknown, 410 used or expired (token in the body: paths are logged)', {
    body: PasswordResetCheckBodySchema, response: { 204: NoContentSchema }, errors: [400, 404, 410],
  }),
  ownTotpRegistration: escalation.post('/user/totp/registration', 'startOwnTotpRegistration', 'Starts registering an authentication app for the signed-in user (password required); confirm with a code', {
    body: OwnTotpRegistrationBodySchema, response: { 200: TotpRegistrationResponseSchema },
    errors: [400, 401, 403, 409, 429], access: 'authenticated', tag: 'user',
  }),
  ownTotpConfirm: escalation.post('/user/totp/confirm', 'confirmOwnTotp', 'Confirms the registration with a code of the app; two-factor is on from now', {
    body: OwnTotpConfirmBodySchema, response: { 204: NoContentSchema }, errors: [400, 401, 403, 409, 429], access: 'authenticated', tag: 'user',
  }),
  ownTotpReset: escalation.post('/user/totp/reset', 'resetOwnTotp', 'Removes the signed-in user’s authentication app (password and a current code required)', {
    body: OwnTotpResetBodySchema, response: { 204: NoContentSchema }, errors: [400, 401, 403, 409, 429], access: 'authenticated', tag: 'user',
  }),
  adminTotpReset: escalation.post('/admin/users/{userUuid}/totp/reset', 'resetUserTotp', "Removes a user's authentication app (lost phone); audit entry (204)", {
    params: UserUuidParamsSchema, response: { 204: NoContentSchema },
    errors: [400, 401, 403, 404], access: { roles: ['ROLE_ADMIN', 'ROLE_USER_ADMIN'] }, tag: 'admin',
  }),
  ownPasswordChange: escalation.post('/user/password', 'changeOwnPassword', 'Changes the signed-in user’s password; other sessions end', {
    body: ChangePasswordBodySchema, response: { 204: NoContentSchema }, errors: [400, 401, 403, 429], access: 'authenticated', tag: 'user',
  }),
};
