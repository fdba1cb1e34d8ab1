import {
  checkPasswordPolicy,
  type PasswordPolicy,
  VERIFICATION_CODE_TTL_MS,
} from '@shared/contract/auth-escalation';
import { reduceLanguage } from '@shared/contract/constants';
import { AUTH_ESCALATION_ENDPOINTS } from '@shared/contract/endpoints/auth-escalation';
import { registerEndpoint } from '../core/endpoint-route';
import { SETTING_KEYS } from '@shared/contract/settings';
import type { FastifyInstance } from 'fastify';
import { badRequest, conflict, HttpError, notFound, rateLimitExceeded } from '../core/http-error';
import { manageableUser } from '../core/manageable-user';
import { routePlugin } from '../core/route-plugin';
import type { UserRow } from '../users/users-repository';
import { RATE_LIMIT_BUCKETS } from '../security/rate-limiter';
import { acceptTotpCodeOnce, generateTotpSecret, qrCodeDataUrl, totpUri } from '../security/totp';
import { loadPasswordPolicy } from '../security/password-policy';
import { hashPassword, verifyPassword } from '../users/passwords';
import { confirmPasswordReset, requestPasswordReset, resetTokenState } from './password-reset';
import { clearLoginFailures } from '../auth/login-flow';
import { SSO_START_PATH, ssoConfigured } from '../auth/oidc-sso';
import { authenticatePreLogin } from './pre-login-credentials';

/** A user may ask for a fresh verification code this often per hour. */
const VERIFICATION_RESEND_LIMIT = { limit: 5, windowMs: 60 * 60_000 } as const;
/** Captchas per IP in 10 minutes: enough for a person retrying, not for filling the table. */
const CAPTCHA_ISSUE_LIMIT = { limit: 60, windowMs: 10 * 60_000 } as const;
/**
 * Wrong passwords or codes when re-authenticating (password change, two-factor registration
 * and removal): a stolen session cannot guess the password or the code. One count for all.
 */
const PASSWORD_CHANGE_FAILURE_LIMIT = { limit: 5, windowMs: 15 * 60_000 } as const;
/**
 * Setting holding an external single sign-on start URL, for an SSO gateway in front of Kuvert.
 * The built-in OpenID Connect sign-on (KUVERT_OIDC_*, auth/oidc-sso.ts) takes precedence.
 */
const SSO_URL_SETTING = 'kuvert.sso.url';


async function policyOf(app: FastifyInstance): Promise<PasswordPolicy> {
  return loadPasswordPolicy(app.settings);
}

async function assertPolicy(app: FastifyInstance, password: string): Promise<void> {
  const violations = checkPasswordPolicy(password, await policyOf(app));
  if (violations.length) throw badRequest('The password does not meet the password policy', { reason: 'policy', violations });
}

function notifyPasswordChanged(app: FastifyInstance, user: { email: string; language: string }, log: FastifyInstance['log']): void {
  const changedAt = new Date().toISOString().replace('T', ' ').slice(0, 16);
  void app.mailer
    .send({ to: user.email, template: 'passwordChanged', language: reduceLanguage(user.language), data: { changedAt } })
    .catch((error: unknown) => log.error({ err: error }, 'password changed notice failed'));
}

/** Pre-login escalation calls, password reset and the user's own password/TOTP changes. */
export const authEscalationRoutes = routePlugin('kuvert-auth-escalation-routes', async (app) => {
  registerEndpoint(app, AUTH_ESCALATION_ENDPOINTS.captcha, async (request, reply) => {
    const hit = await app.rateLimiter.hit(RATE_LIMIT_BUCKETS.captchaIssueIp, request.ip, CAPTCHA_ISSUE_LIMIT);
    if (!hit.allowed) throw rateLimitExceeded(hit.retryAfterMs);
    void reply.header('cache-control', 'no-store');
    return app.captchas.issue();
  });

  registerEndpoint(app, AUTH_ESCALATION_ENDPOINTS.totpRegistration, async (request, reply) => {
    const user = await authenticatePreLogin(app, request);
    if (user.totp_secret) throw conflict('An authentication app is already registered');
    void reply.header('cache-control', 'no-store');
    return startTotpRegistration(app, user);
  });

  registerEndpoint(app, AUTH_ESCALATION_ENDPOINTS.verificationResend, async (request, reply) => {
    const user = await authenticatePreLogin(app, request);
    if (!user.email_verified) {
      const hit = await app.rateLimiter.hit(RATE_LIMIT_BUCKETS.verificationResend, String(user.id), VERIFICATION_RESEND_LIMIT);
      if (!hit.allowed) throw rateLimitExceeded(hit.retryAfterMs);
      const code = await app.verificationCodes.issue(user.id, { force: true });
      if (code) {
        await app.mailer.send({
          to: user.email,
          template: 'accountVerificationCode',
          language: reduceLanguage(user.language),
          data: { code, validMinutes: VERIFICATION_CODE_TTL_MS / 60_000 },
        });
      }
    }
    return reply.code(204).send(null);
  });

  registerEndpoint(app, AUTH_ESCALATION_ENDPOINTS.disclaimer, async (request) => {
    const all = await app.settings.getAll();
    const lang = reduceLanguage(request.query.lang);
    const text = all[`${SETTING_KEYS.loginDisclaimerText}.${lang}`] || all[`${SETTING_KEYS.loginDisclaimerText}.en`] || '';
    return { enabled: all[SETTING_KEYS.loginDisclaimerEnabled] === true, text: String(text) };
  });

  registerEndpoint(app, AUTH_ESCALATION_ENDPOINTS.passwordPolicy, async () => policyOf(app));

  registerEndpoint(app, AUTH_ESCALATION_ENDPOINTS.sso, async () => {
    if (ssoConfigured(app)) return { enabled: true, url: SSO_START_PATH };
    const url = await app.settings.get<string | null>(SSO_URL_SETTING);
    return typeof url === 'string' && url !== '' ? { enabled: true, url } : { enabled: false, url: null };
  });

  registerEndpoint(app, AUTH_ESCALATION_ENDPOINTS.passwordResetRequest, async (request, reply) => {
    await requestPasswordReset(app, { email: request.body.email, language: request.body.language, ip: request.ip, log: request.log });
    return reply.code(204).send(null);
  });

  // Registered before `/:token` would match it: "confirm" is a fixed path segment on POST only.
  registerEndpoint(app, AUTH_ESCALATION_ENDPOINTS.passwordResetConfirm, async (request, reply) => {
    const { token, password } = request.body;
    if ((await resetTokenState(app, token)) !== 'valid') throw badRequest('The link is invalid or has expired', { reason: 'token' });
    await assertPolicy(app, password);
    const userId = await confirmPasswordReset(app, token, password);
    if (userId === null) throw badRequest('The link is invalid or has expired', { reason: 'token' });
    const user = await app.users.findById(userId);
    if (user) {
      // The owner proved the address: a delay an attacker caused ends with the new password.
      await clearLoginFailures(app, user);
      notifyPasswordChanged(app, user, request.log);
    }
    return reply.code(204).send(null);
  });

  registerEndpoint(app, AUTH_ESCALATION_ENDPOINTS.passwordResetCheck, async (request, reply) => {
    const state = await resetTokenState(app, request.body.token);
    if (state === 'unknown') throw notFound('The link is invalid');
    if (state !== 'valid') throw new HttpError(410, 'NotFoundException', 'The link has expired or was already used', { reason: state });
    void reply.header('cache-control', 'no-store');
    return reply.code(204).send(null);
  });

  /** Re-authentication of a signed-in user: counts misses, 429 after too many (one count for password and code). */
  const reauthentication = (user: UserRow) => {
    const bucket = RATE_LIMIT_BUCKETS.passwordChangeFailure;
    const subject = String(user.id);
    return {
      async assertNotLocked() {
        const failures = await app.rateLimiter.count(bucket, subject, PASSWORD_CHANGE_FAILURE_LIMIT.windowMs);
        if (failures >= PASSWORD_CHANGE_FAILURE_LIMIT.limit) throw rateLimitExceeded(PASSWORD_CHANGE_FAILURE_LIMIT.windowMs);
      },
      async refuse(reason: 'currentPassword' | 'code'): Promise<never> {
        await app.rateLimiter.record(bucket, subject);
        throw badRequest(reason === 'code' ? 'The code is wrong' : 'The current password is wrong', { reason });
      },
    };
  };

  registerEndpoint(app, AUTH_ESCALATION_ENDPOINTS.ownTotpRegistration, async (request, reply) => {
    const user = request.user!;
    const reauth = reauthentication(user);
    await reauth.assertNotLocked();
    if (user.totp_secret) throw conflict('An authentication app is already registered');
    if (!(await verifyPassword(user.password_hash, request.body.password))) await reauth.refuse('currentPassword');
    void reply.header('cache-control', 'no-store');
    return startTotpRegistration(app, user);
  });

  registerEndpoint(app, AUTH_ESCALATION_ENDPOINTS.ownTotpConfirm, async (request, reply) => {
    const user = request.user!;
    const reauth = reauthentication(user);
    await reauth.assertNotLocked();
    if (user.totp_secret) throw conflict('An authentication app is already registered');
    if (!user.totp_pending_secret) throw new HttpError(409, 'ConflictException', 'No registration was started', { reason: 'noRegistration' });
    const pending = openSealed(app, user.id, 'totp_pending_secret', user.totp_pending_secret);
    if (!(await acceptTotpCodeOnce(app.rateLimiter, user.id, pending, request.body.code))) await reauth.refuse('code');
    await app.users.update(user.id, { totp_secret: app.secretBox.seal(user.id, 'totp_secret', pending), totp_pending_secret: null });
    await app.auditLog.record({ actorUserId: user.id, action: 'totp.registered', subjectUserId: user.id });
    return reply.code(204).send(null);
  });

  registerEndpoint(app, AUTH_ESCALATION_ENDPOINTS.ownTotpReset, async (request, reply) => {
    const user = request.user!;
    const reauth = reauthentication(user);
    await reauth.assertNotLocked();
    if (!user.totp_secret) throw new HttpError(409, 'ConflictException', 'No authentication app is registered', { reason: 'notRegistered' });
    if (!(await verifyPassword(user.password_hash, request.body.password))) await reauth.refuse('currentPassword');
    const secret = openSealed(app, user.id, 'totp_secret', user.totp_secret);
    if (!(await acceptTotpCodeOnce(app.rateLimiter, user.id, secret, request.body.code))) await reauth.refuse('code');
    await app.users.update(user.id, { totp_secret: null, totp_pending_secret: null });
    await app.auditLog.record({ actorUserId: user.id, action: 'totp.reset', subjectUserId: user.id });
    return reply.code(204).send(null);
  });

  registerEndpoint(app, AUTH_ESCALATION_ENDPOINTS.adminTotpReset, async (request, reply) => {
    const actor = request.user!;
    const subject = await manageableUser(app, actor, request.params.userUuid, "Only administrators may reset an administrator's authentication app");
    await app.users.update(subject.id, { totp_secret: null, totp_pending_secret: null });
    await app.auditLog.record({ actorUserId: actor.id, action: 'totp.reset', subjectUserId: subject.id });
    return reply.code(204).send(null);
  });

  registerEndpoint(app, AUTH_ESCALATION_ENDPOINTS.ownPasswordChange, async (request, reply) => {
    const user = request.user!;
    const { currentPassword, newPassword } = request.body;
    const reauth = reauthentication(user);
    await reauth.assertNotLocked();
    if (!(await verifyPassword(user.password_hash, currentPassword))) await reauth.refuse('currentPassword');
    await assertPolicy(app, newPassword);
    await app.users.update(user.id, { password_hash: await hashPassword(newPassword) });
    // Whoever else was signed in with the old password is out; this session stays.
    await app.db.deleteFrom('sessions').where('user_id', '=', user.id).where('id', '!=', request.session!.id).execute();
    notifyPasswordChanged(app, user, request.log);
    return reply.code(204).send(null);
  });
});

/** A fresh secret, stored sealed as the pending one; the answer shows it once for the app. */
async function startTotpRegistration(app: FastifyInstance, user: UserRow) {
  const secret = generateTotpSecret();
  await app.users.update(user.id, { totp_pending_secret: app.secretBox.seal(user.id, 'totp_pending_secret', secret) });
  const otpauthUri = totpUri(secret, user.email || user.username);
  return { secret, otpauthUri, qrCodeDataUrl: await qrCodeDataUrl(otpauthUri) };
}

/** The stored secret in clear; one that does not open (other server key) is a clear 409, never a 500. */
function openSealed(app: FastifyInstance, userId: number, column: 'totp_secret' | 'totp_pending_secret', stored: string): string {
  try {
    return app.secretBox.open(userId, column, stored);
  } catch (error) {
    app.log.error({ userId, column, reason: (error as Error).message }, 'a TOTP secret does not open with this server key');
    throw new HttpError(409, 'ConflictException', 'The authentication app cannot be checked; please ask an administrator to remove it', { reason: 'secretUnavailable' });
  }
}
