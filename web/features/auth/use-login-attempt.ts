import type { LoginQuery } from '@shared/contract/auth';
import { authStore } from '@web/lib/auth';
import { ROUTES } from '@web/lib/routes';
import { useCallback, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { loginFlow, resolveLoginOutcome, type AuthMessage } from './login-flow';

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
      const { credentials, disclaimerAccepted, continueTo } = loginFlow.get();
      if (!credentials) {
        navigate(ROUTES.login, { replace: true });
        return null;
      }
      setPending(true);
      try {
        await authStore.login(credentials, { ...(disclaimerAccepted ? { j_login_disclaimer_accepted: 'true' } : {}), ...query });
        loginFlow.reset();
        navigate(continueTo ?? ROUTES.inbox, { replace: true });
        return null;
      } catch (error) {
        const outcome = resolveLoginOutcome(error, { sentCaptcha: Boolean(query.j_captcha), sentAuthCode: Boolean(query.j_auth_app_code) });
        loginFlow.update({ entry: outcome.entry });
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

/** Escalation screens need the remembered credentials; without them (reload) they start over. */
export function useRequireLoginFlow(): boolean {
  return loginFlow.get().credentials !== null;
}
