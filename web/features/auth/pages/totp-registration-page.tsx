import { Button, Field, Input, Spinner } from '@fluentui/react-components';
import { AUTH_APP_CODE_LENGTH } from '@shared/contract/constants';
import { PageHeading } from '@web/components/page-heading';
import { TotpSecret } from '@web/components/totp-secret';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate } from 'react-router';
import { ROUTES } from '@web/lib/routes';
import { useTotpRegistration } from '../api/totp-registration';
import { AuthCard, authFormStyle } from '../auth-layout';
import { AuthMessageBar } from '../auth-message';
import { refusedForCaptcha } from '../captcha-refusal';
import { loginFlow } from '../login-flow';
import { useAuthAppCodeStep } from '../use-auth-app-code-step';
import { useLoginFlowRedirect } from '../use-login-attempt';

/** Registration of an authentication app: scan the QR code or type the key, then confirm with a code. */
export function TotpRegistrationPage() {
  const { t } = useTranslation();
  const flowRedirect = useLoginFlowRedirect();
  const [captchaAnswer] = useState(() => loginFlow.get().captchaAnswer);
  const registration = useTotpRegistration(loginFlow.get().credentials, captchaAnswer);
  const { formRef, code, setCode, error, message, pending, submit } = useAuthAppCodeStep('registration');
  const navigate = useNavigate();

  // After repeated failed sign-ins the registration call needs a captcha too: the captcha
  // screen answers for this step and comes back here.
  const captchaRefusal = refusedForCaptcha(registration.error);
  useEffect(() => {
    if (!captchaRefusal) return;
    loginFlow.update({ captchaFor: ROUTES.totpRegistration, captchaAnswer: null, message: captchaRefusal === 'wrong' ? 'wrongCaptcha' : null });
    navigate(ROUTES.captcha);
  }, [captchaRefusal, navigate]);
  useEffect(() => {
    if (registration.data) loginFlow.update({ captchaAnswer: null });
  }, [registration.data]);

  if (flowRedirect) return <Navigate to={flowRedirect} replace />;

  return (
    <AuthCard>
      <PageHeading>{t('auth:totpRegistration.title')}</PageHeading>
      <AuthMessageBar message={message ?? (registration.error ? 'generalError' : null)} />
      <ol style={{ paddingLeft: 20, display: 'grid', gap: 12 }}>
        <li>{t('auth:totpRegistration.stepInstall')}</li>
        <li>
          {t('auth:totpRegistration.stepScan')}
          <div style={{ display: 'grid', justifyItems: 'center', gap: 8, marginTop: 8 }}>
            {registration.isLoading ? <Spinner size="small" label={t('common:loading')} /> : null}
            {registration.data ? <TotpSecret registration={registration.data} /> : null}
          </div>
        </li>
        <li>{t('auth:totpRegistration.stepCode', { count: AUTH_APP_CODE_LENGTH })}</li>
      </ol>
      <form ref={formRef} onSubmit={submit} noValidate style={authFormStyle}>
        <Field label={t('auth:totp.code')} required validationMessage={error}>
          <Input name="auth-app-code" inputMode="numeric" autoComplete="one-time-code" value={code} onChange={(_e, data) => setCode(data.value)} />
        </Field>
        <Button type="submit" appearance="primary" disabled={pending || !registration.data}>
          {t('auth:totpRegistration.submit')}
        </Button>
      </form>
    </AuthCard>
  );
}
