import { RouterLink } from '@web/components/router-link';
import { Button, Field, Input } from '@fluentui/react-components';
import { AUTH_APP_CODE_LENGTH } from '@shared/contract/constants';
import { PageHeading } from '@web/components/page-heading';
import { ROUTES } from '@web/lib/routes';
import { useTranslation } from 'react-i18next';
import { Navigate } from 'react-router';
import { AuthCard, authFormStyle } from '../auth-layout';
import { AuthMessageBar } from '../auth-message';
import { useAuthAppCodeStep } from '../use-auth-app-code-step';
import { useLoginFlowRedirect } from '../use-login-attempt';

/** Two-factor sign-in with the 6-digit code of the authentication app (SPEC §2, §5). */
export function TotpAuthenticationPage() {
  const { t } = useTranslation();
  const flowRedirect = useLoginFlowRedirect();
  const { formRef, code, setCode, error, message, pending, submit } = useAuthAppCodeStep('authentication');

  if (flowRedirect) return <Navigate to={flowRedirect} replace />;

  return (
    <AuthCard>
      <PageHeading>{t('auth:totp.title')}</PageHeading>
      <AuthMessageBar message={message} />
      <p>{t('auth:totp.intro', { count: AUTH_APP_CODE_LENGTH })}</p>
      <form ref={formRef} onSubmit={submit} noValidate style={authFormStyle}>
        <Field label={t('auth:totp.code')} required validationMessage={error}>
          <Input name="auth-app-code" inputMode="numeric" autoComplete="one-time-code" maxLength={AUTH_APP_CODE_LENGTH + 2} autoFocus value={code} onChange={(_e, data) => setCode(data.value)} />
        </Field>
        <Button type="submit" appearance="primary" disabled={pending}>
          {t('auth:totp.submit')}
        </Button>
        <RouterLink to={ROUTES.login}>{t('auth:common.backToLogin')}</RouterLink>
      </form>
    </AuthCard>
  );
}
