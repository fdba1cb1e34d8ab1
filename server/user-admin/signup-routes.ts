import { FALLBACK_LANGUAGE, reduceLanguage } from '@shared/contract/constants';
import { VERIFICATION_CODE_TTL_MS } from '@shared/contract/auth-escalation';
import { ACCOUNT_ENDPOINTS } from '@shared/contract/endpoints/account';
import { SIGNUP_IP_LIMIT, SIGNUP_SETTING_KEY } from '@shared/contract/signup';
import { registerEndpoint } from '../core/endpoint-route';
import { HttpError, rateLimitExceeded } from '../core/http-error';
import { routePlugin } from '../core/route-plugin';
import { RATE_LIMIT_BUCKETS } from '../security/rate-limiter';
import { assertPasswordMeetsPolicy } from '../security/password-policy';
import { hashPassword } from '../users/passwords';
import { DEFAULT_USER_ROLES, UserExistsError } from '../users/users-repository';

/** Web client pages named in the mails (web/lib/routes.ts). */
const LOGIN_WEB_PATH = '/auth/login';
const REQUEST_RESET_WEB_PATH = '/auth/request-reset-password';

/** Self-registration (contract: shared/contract/signup.ts). */
export const signupRoutes = routePlugin('kuvert-signup-routes', async (app) => {
  const enabled = async () => (await app.settings.get<boolean>(SIGNUP_SETTING_KEY)) === true;

  registerEndpoint(app, ACCOUNT_ENDPOINTS.signupInfo, async (_request, reply) => {
    void reply.header('cache-control', 'no-cache');
    return { enabled: await enabled() };
  });

  registerEndpoint(app, ACCOUNT_ENDPOINTS.signUp, async (request, reply) => {
    if (!(await enabled())) throw new HttpError(403, 'AccessDeniedException', 'Sign-up is not enabled', { reason: 'signupNotEnabled' });
    const byIp = await app.rateLimiter.hit(RATE_LIMIT_BUCKETS.signupIp, request.ip, SIGNUP_IP_LIMIT);
    if (!byIp.allowed) throw rateLimitExceeded(byIp.retryAfterMs);
    const body = request.body;
    await assertPasswordMeetsPolicy(app.settings, body.password);
    const language = body.language ?? FALLBACK_LANGUAGE;
    try {
      const user = await app.users.create({
        username: body.email,
        email: body.email,
        passwordHash: await hashPassword(body.password),
        firstName: body.firstName,
        lastName: body.lastName,
        roles: DEFAULT_USER_ROLES,
        language,
        emailVerified: false,
        // Anyone may register: an outsider until an administrator licenses the account.
        licensed: false,
      });
      await app.auditLog.record({ actorUserId: user.id, action: 'user.signup', subjectUserId: user.id });
      const code = await app.verificationCodes.issue(user.id);
      if (code) {
        await app.mailer
          .send({ to: user.email, template: 'accountVerificationCode', language, data: { code, validMinutes: Math.round(VERIFICATION_CODE_TTL_MS / 60_000) } })
          .catch((err: unknown) => request.log.error({ err }, 'sign-up verification mail failed'));
      }
    } catch (err) {
      if (!(err instanceof UserExistsError)) throw err;
      const owner = await app.users.findByLogin(body.email);
      if (owner && !owner.disabled) {
        const base = app.config.publicUrl;
        await app.mailer
          .send({
            to: owner.email,
            template: 'signupExistingAccount',
            language: reduceLanguage(owner.language),
            data: { loginLink: `${base}${LOGIN_WEB_PATH}`, resetLink: `${base}${REQUEST_RESET_WEB_PATH}` },
          })
          .catch((mailError: unknown) => request.log.error({ err: mailError }, 'sign-up notice mail failed'));
      }
    }
    return reply.code(202).send({});
  });
});
