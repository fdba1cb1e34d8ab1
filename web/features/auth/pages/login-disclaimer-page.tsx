import { RouterLink } from '@web/components/router-link';
import { Button, Spinner } from '@fluentui/react-components';
import { PageHeading } from '@web/components/page-heading';
import { currentLanguage } from '@web/lib/i18n';
import { ROUTES } from '@web/lib/routes';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate } from 'react-router';
import { useLoginDisclaimer } from '../api/login-disclaimer';
import { AuthCard, authFormStyle } from '../auth-layout';
import { AuthMessageBar } from '../auth-message';
import { loginFlow, type AuthMessage } from '../login-flow';
import { useLoginAttempt, useLoginFlowRedirect } from '../use-login-attempt';
import { ANALYTICS_ACTIONS } from '@web/lib/analytics/actions';
import { track } from '@web/lib/analytics/analytics';

/** The configured login disclaimer; accepting it retries the login (SPEC §2, §7). */
export function LoginDisclaimerPage() {
  const { t, i18n } = useTranslation();
  const flowRedirect = useLoginFlowRedirect();
  const disclaimer = useLoginDisclaimer(i18n.language ? currentLanguage() : 'en');
  const { attempt, pending } = useLoginAttempt();
  const [message, setMessage] = useState<AuthMessage | null>(() => loginFlow.takeMessage());
  const navigate = useNavigate();

  if (flowRedirect) return <Navigate to={flowRedirect} replace />;

  async function accept() {
    const { stepAfterDisclaimer } = loginFlow.get();
    track(ANALYTICS_ACTIONS.loginDisclaimerAccepted);
    loginFlow.update({ disclaimerAccepted: true, stepAfterDisclaimer: null });
    if (stepAfterDisclaimer) {
      // Shown ahead of the two-factor step: the acceptance travels with the code.
      navigate(stepAfterDisclaimer);
      return;
    }
    const result = await attempt({ j_login_disclaimer_accepted: 'true' });
    if (result) setMessage(result);
  }

  return (
    <AuthCard>
      <PageHeading focusOnMount>{t('auth:disclaimer.title')}</PageHeading>
      <AuthMessageBar message={message ?? (disclaimer.error ? 'generalError' : null)} />
      {disclaimer.isLoading ? <Spinner size="small" label={t('common:loading')} /> : null}
      <div data-testid="login-disclaimer-text" style={{ whiteSpace: 'pre-wrap', maxHeight: 320, overflowY: 'auto', marginBottom: 16 }} tabIndex={0} aria-label={t('auth:disclaimer.textLabel')}>
        {disclaimer.data?.text}
      </div>
      <div style={authFormStyle}>
        <Button appearance="primary" onClick={() => void accept()} disabled={pending}>
          {t('auth:disclaimer.accept')}
        </Button>
        <RouterLink to={ROUTES.login} onClick={() => loginFlow.reset()}>
          {t('auth:disclaimer.decline')}
        </RouterLink>
      </div>
    </AuthCard>
  );
}
