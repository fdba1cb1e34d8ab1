import { RouterLink } from '@web/components/router-link';
import { Button, Field, Input } from '@fluentui/react-components';
import { isApiError } from '@shared/api/api-error';
import { PageHeading } from '@web/components/page-heading';
import { currentLanguage } from '@web/lib/i18n';
import { ROUTES } from '@web/lib/routes';
import { emailMessage, focusFirstInvalid } from '@web/lib/validation';
import { useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { requestPasswordReset } from '../api/password-reset';
import { AuthCard, authFormStyle } from '../auth-layout';
import { AuthMessageBar } from '../auth-message';
import type { AuthMessage } from '../login-flow';
import { ANALYTICS_ACTIONS } from '@web/lib/analytics/actions';
import { track } from '@web/lib/analytics/analytics';

/** Asks for a reset link by email; the answer never reveals whether the address exists. */
export function RequestResetPasswordPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const formRef = useRef<HTMLFormElement>(null);
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string>();
  const [message, setMessage] = useState<AuthMessage | null>(null);
  const [pending, setPending] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    track(ANALYTICS_ACTIONS.passwordRequestResetButton);
    const invalid = emailMessage(t, email);
    setError(invalid);
    if (invalid) {
      requestAnimationFrame(() => focusFirstInvalid(formRef.current));
      return;
    }
    setPending(true);
    setMessage(null);
    try {
      await requestPasswordReset({ email: email.trim(), language: currentLanguage() });
      navigate(ROUTES.requestResetPasswordSuccess);
    } catch (failure) {
      setMessage(isApiError(failure) && failure.status === 429 ? 'passwordResetRateLimit' : 'generalError');
    } finally {
      setPending(false);
    }
  }

  return (
    <AuthCard>
      <PageHeading>{t('auth:requestReset.title')}</PageHeading>
      <AuthMessageBar message={message} />
      <p>{t('auth:requestReset.intro')}</p>
      <form ref={formRef} onSubmit={submit} noValidate style={authFormStyle}>
        <Field label={t('auth:requestReset.email')} required validationMessage={error}>
          <Input type="email" name="email" autoComplete="email" autoFocus value={email} onChange={(_e, data) => setEmail(data.value)} />
        </Field>
        <Button type="submit" appearance="primary" disabled={pending}>
          {t('auth:requestReset.submit')}
        </Button>
        <RouterLink to={ROUTES.login}>{t('auth:common.backToLogin')}</RouterLink>
      </form>
    </AuthCard>
  );
}

export function RequestResetPasswordSuccessPage() {
  const { t } = useTranslation();
  return (
    <AuthCard>
      <PageHeading focusOnMount>{t('auth:requestReset.successTitle')}</PageHeading>
      <p>{t('auth:requestReset.successText')}</p>
      <RouterLink to={ROUTES.login}>{t('auth:common.backToLogin')}</RouterLink>
    </AuthCard>
  );
}
