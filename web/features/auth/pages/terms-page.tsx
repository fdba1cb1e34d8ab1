import { RouterLink } from '@web/components/router-link';
import { Button, Checkbox } from '@fluentui/react-components';
import { postAcceptTerms } from '@shared/api/endpoints/terms';
import { isApiError } from '@shared/api/api-error';
import type { TermsConsent } from '@shared/contract/terms';
import { Alert } from '@web/components/alert';
import { PageHeading } from '@web/components/page-heading';
import { apiClient } from '@web/lib/api-client';
import { authStore, useAuthState } from '@web/lib/auth';
import { ROUTES, safeContinueTarget } from '@web/lib/routes';
import { forgetTermsConsent, rememberTermsConsent, termsConsentFor } from '@web/lib/terms-consent';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { AuthCard, authFormStyle } from '../auth-layout';

/**
 * Terms of use and privacy agreement (SPEC §2, issue 34). Signed out: the terms to read, reached
 * from the login page. Signed in with a version in force not agreed to yet (the root loader sends
 * the user here before any page): agreeing stores the version and time and continues where the
 * user was going; signing out is the way not to agree.
 */
export function TermsPage() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const { user } = useAuthState();
  const [agreed, setAgreed] = useState(false);
  const [consent, setConsent] = useState<TermsConsent | null>(null);
  const [busy, setBusy] = useState(false);
  const [changed, setChanged] = useState(false);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    if (!user) return;
    let live = true;
    void termsConsentFor(user.uuid).then((loaded) => live && setConsent(loaded));
    return () => void (live = false);
  }, [user]);

  const next = safeContinueTarget(params.get('continue')) ?? ROUTES.inbox;
  const agree = async () => {
    if (!user || !consent) return;
    setBusy(true);
    setFailed(false);
    try {
      const accepted = await postAcceptTerms(apiClient, consent.version);
      rememberTermsConsent(user.uuid, accepted);
      void navigate(next, { replace: true });
    } catch (error) {
      if (isApiError(error) && error.status === 409) {
        // An administrator numbered a new version meanwhile: show it, ask again.
        setChanged(true);
        setAgreed(false);
        forgetTermsConsent();
        setConsent(await termsConsentFor(user.uuid));
      } else setFailed(true);
    } finally {
      setBusy(false);
    }
  };

  const asking = user !== null && consent?.required === true;
  const custom = consent?.text.trim() ? consent.text : null;
  const dates = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });
  return (
    <AuthCard>
      <PageHeading focusOnMount>{t('auth:terms.title')}</PageHeading>
      {asking ? <Alert type="info">{consent.acceptedVersion ? t('auth:terms.newVersion', { version: consent.version }) : t('auth:terms.pleaseAgree')}</Alert> : null}
      {changed ? <Alert type="warning">{t('auth:terms.changedMeanwhile')}</Alert> : null}
      {failed ? <Alert type="error">{t('auth:terms.saveFailed')}</Alert> : null}
      {custom ? (
        <section aria-label={t('auth:terms.title')} style={{ whiteSpace: 'pre-wrap' }}>
          {custom}
        </section>
      ) : (
        <>
          <section aria-labelledby="terms-use">
            <h2 id="terms-use" style={{ fontSize: 16 }}>{t('auth:terms.useTitle')}</h2>
            <p>{t('auth:terms.useText')}</p>
          </section>
          <section aria-labelledby="terms-privacy">
            <h2 id="terms-privacy" style={{ fontSize: 16 }}>{t('auth:terms.privacyTitle')}</h2>
            <p>{t('auth:terms.privacyText')}</p>
          </section>
        </>
      )}
      {user && consent && !asking && consent.acceptedVersion && consent.acceptedAt ? (
        <p>{t('auth:terms.agreedOn', { version: consent.acceptedVersion, date: dates.format(new Date(consent.acceptedAt)) })}</p>
      ) : null}
      <div style={authFormStyle}>
        {asking ? (
          <>
            <Checkbox checked={agreed} onChange={(_e, data) => setAgreed(data.checked === true)} label={t('auth:terms.agree')} />
            <Button appearance="primary" disabled={!agreed || busy} onClick={() => void agree()}>
              {t('auth:terms.agreeAndContinue')}
            </Button>
            <Button onClick={() => void authStore.logout().then(() => navigate(ROUTES.login, { replace: true }))}>{t('auth:terms.signOut')}</Button>
          </>
        ) : user ? (
          <RouterLink to={next}>{t('auth:terms.backToApp')}</RouterLink>
        ) : (
          <>
            <Checkbox checked={agreed} onChange={(_e, data) => setAgreed(data.checked === true)} label={t('auth:terms.agree')} />
            <Button appearance="primary" disabled={!agreed} onClick={() => void navigate(ROUTES.login)}>
              {t('auth:terms.continue')}
            </Button>
            <RouterLink to={ROUTES.login}>{t('auth:common.backToLogin')}</RouterLink>
          </>
        )}
      </div>
    </AuthCard>
  );
}

