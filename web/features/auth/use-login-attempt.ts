import type { LoginQuery } from '@shared/contract/auth';
import { currentLanguage } from '@web/lib/i18n';
import { fetchLoginDisclaimer } from './api/login-disclaimer';
import { authStore, useAuthState } from '@web/lib/auth';
import { ROUTES } from '@web/lib/routes';
import { useCallback, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { homeAfterSignIn } from './home-path';
import { loginFlow, resolveLoginOutcome, type AuthMessage } from './login-flow';
import { ANALYTICS_ACTIONS } from '@web/lib/analytics/actions';
import { track } from '@web/lib/analytics/analytics';

/**
 * Runs POST /auth with the remembered credentials plus this step's answer, then goes to the
 * continue target or to the screen the authorization code asks for.
 */
export function useLoginAttempt() {
  const navigate = useNavigate();
  const location = useLocation();
  const [pending, setPending] = useState(false);

  const attempt = useCallback(
    async (query: LoginQuery = {}): Promise<AuthMessage | null> => {
      const { credentials, disclaimerAccepted, authAppCode, verificationCode, continueTo } = loginFlow.get();
      if (!credentials) {
        navigate(ROUTES.login, { replace: true });
        return null;
      }
      setPending(true);
      try {
        const user = await authStore.login(credentials, {
          ...(disclaimerAccepted ? { j_login_disclaimer_accepted: 'true' } : {}),
          ...(authAppCode ? { j_auth_app_code: authAppCode } : {}),
          ...(verificationCode ? { j_verification_code: verificationCode } : {}),
          ...query,
        });
        const target = continueTo ?? (await homeAfterSignIn(user.roleNames));
        loginFlow.complete(target);
        navigate(target, { replace: true });
        return null;
      } catch (error) {
        const outcome = resolveLoginOutcome(error, { sentCaptcha: Boolean(query.j_captcha), sentAuthCode: Boolean(query.j_auth_app_code) });
        // Every refusal of POST /auth, a further step (captcha, code) included; the step names which.
        track(ANALYTICS_ACTIONS.loginFailed, { step: outcome.step });
        const codeRefused = outcome.step === ROUTES.totpAuthentication || outcome.step === ROUTES.totpRegistration;
        // A code that got past the two-factor step is remembered for the later steps.
        const nextCode = codeRefused ? null : (query.j_auth_app_code ?? authAppCode);
        // A verification code the server did not get to (a captcha came first) waits for the next attempt.
        const nextVerificationCode = outcome.step === ROUTES.accountVerification ? null : (query.j_verification_code ?? verificationCode);
        loginFlow.update({ entry: outcome.entry, authAppCode: nextCode, verificationCode: nextVerificationCode });
        if (codeRefused && !disclaimerAccepted && (await disclaimerEnabled())) {
          loginFlow.update({ stepAfterDisclaimer: outcome.step, message: null });
          navigate(ROUTES.loginDisclaimer);
          return null;
        }
        if (outcome.step === location.pathname) return outcome.message;
        loginFlow.update({ message: outcome.message });
        navigate(outcome.step);
        return null;
      } finally {
        setPending(false);
      }
    },
    [navigate, location.pathname],
  );

  return { attempt, pending };
}

/** Whether the login disclaimer is on (public call); unknown counts as off, the server still asks. */
async function disclaimerEnabled(): Promise<boolean> {
  try {
    return (await fetchLoginDisclaimer(currentLanguage())).enabled;
  } catch {
    return false;
  }
}

/**
 * Escalation screens need the remembered credentials: without them (reload) they start over at
 * the login page; right after a successful sign-in (user signed in) they follow it to its
 * target. Null while the flow runs.
 */
export function useLoginFlowRedirect(): string | null {
  const { user } = useAuthState();
  const { credentials, completedTo } = loginFlow.get();
  if (credentials) return null;
  return completedTo && user ? completedTo : ROUTES.login;
}
