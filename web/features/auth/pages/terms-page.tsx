import { RouterLink } from '@web/components/router-link';
import { Button, Checkbox } from '@fluentui/react-components';
import { PageHeading } from '@web/components/page-heading';
import { ROUTES } from '@web/lib/routes';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { AuthCard, authFormStyle } from '../auth-layout';

/** Terms of use and privacy agreement (SPEC §2). Agreeing continues to the sign-in. */
export function TermsPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [agreed, setAgreed] = useState(false);
  return (
    <AuthCard>
      <PageHeading focusOnMount>{t('auth:terms.title')}</PageHeading>
      <section aria-labelledby="terms-use">
        <h2 id="terms-use" style={{ fontSize: 16 }}>{t('auth:terms.useTitle')}</h2>
        <p>{t('auth:terms.useText')}</p>
      </section>
      <section aria-labelledby="terms-privacy">
        <h2 id="terms-privacy" style={{ fontSize: 16 }}>{t('auth:terms.privacyTitle')}</h2>
        <p>{t('auth:terms.privacyText')}</p>
      </section>
      <div style={authFormStyle}>
        <Checkbox checked={agreed} onChange={(_e, data) => setAgreed(data.checked === true)} label={t('auth:terms.agree')} />
        <Button appearance="primary" disabled={!agreed} onClick={() => navigate(ROUTES.login)}>
          {t('auth:terms.continue')}
        </Button>
        <RouterLink to={ROUTES.login}>{t('auth:common.backToLogin')}</RouterLink>
      </div>
    </AuthCard>
  );
}
