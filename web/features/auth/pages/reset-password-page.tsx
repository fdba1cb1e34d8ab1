import { RouterLink } from '@web/components/router-link';
import { Button, Spinner } from '@fluentui/react-components';
import { isApiError } from '@shared/api/api-error';
import { Alert } from '@web/components/alert';
import { NewPasswordFields, type NewPasswordValue } from '@web/components/new-password-fields';
import { PageHeading } from '@web/components/page-heading';
import { ROUTES } from '@web/lib/routes';
import { focusFirstInvalid, newPasswordMessages } from '@web/lib/validation';
import { useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useFragmentToken } from '@web/lib/fragment-token';
import { useNavigate, useSearchParams } from 'react-router';
import { PASSWORD_LINK_INVITATION_FLAG } from '@shared/contract/auth-escalation';
import { usePasswordPolicy } from '../api/password-policy';
import { confirmPasswordReset, usePasswordResetToken } from '../api/password-reset';
import { AuthCard, authFormStyle } from '../auth-layout';
import { AuthMessageBar } from '../auth-message';
import type { AuthMessage } from '../login-flow';
import { ANALYTICS_ACTIONS } from '@web/lib/analytics/actions';
import { track } from '@web/lib/analytics/analytics';

/**
 * New password from the mailed link `#token=` (SPEC §2 password reset). The token stays in the
 * fragment and goes to the API only in request bodies; a link mailed before (`?token=`) is moved
 * into the fragment at once (useFragmentToken). An invitation's link (`?invitation=1`) sets the
 * first password: the page and its success say so, not "new password" / "changed".
 */
export function ResetPasswordPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const token = useFragmentToken('token');
  const invitation = isInvitation(useSearchParams()[0]);
  const tokenCheck = usePasswordResetToken(token);
  const policy = usePasswordPolicy();
  const formRef = useRef<HTMLFormElement>(null);
  const [value, setValue] = useState<NewPasswordValue>({ password: '', confirmation: '' });
  const [errors, setErrors] = useState<{ password?: string; confirmation?: string }>({});
  const [message, setMessage] = useState<AuthMessage | null>(null);
  const [linkInvalid, setLinkInvalid] = useState(false);
  const [pending, setPending] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    track(ANALYTICS_ACTIONS.passwordResetButton);
    const next = newPasswordMessages(t, value.password, value.confirmation, policy.data);
    setErrors(next);
    if (next.password || next.confirmation || !token) {
      requestAnimationFrame(() => focusFirstInvalid(formRef.current));
      return;
    }
    setPending(true);
    setMessage(null);
    try {
      await confirmPasswordReset({ token, password: value.password });
      navigate(invitation ? `${ROUTES.resetPasswordSuccess}?${PASSWORD_LINK_INVITATION_FLAG}=1` : ROUTES.resetPasswordSuccess, { replace: true });
    } catch (failure) {
      const reason = isApiError(failure) ? (failure.error?.metadata as { reason?: string } | undefined)?.reason : undefined;
      if (reason === 'token') setLinkInvalid(true);
      else setMessage('passwordSubmitError');
    } finally {
      setPending(false);
    }
  }

  const invalid = !token || linkInvalid || Boolean(tokenCheck.error);
  return (
    <AuthCard>
      <PageHeading>{t(invitation ? 'auth:resetPassword.firstTitle' : 'auth:resetPassword.title')}</PageHeading>
      <AuthMessageBar message={message} />
      {tokenCheck.isLoading ? <Spinner size="small" label={t('common:loading')} /> : null}
      {invalid ? (
        <>
          <Alert type="error">{t('auth:resetPassword.invalidLink')}</Alert>
          <RouterLink to={ROUTES.requestResetPassword}>{t('auth:resetPassword.requestNew')}</RouterLink>
        </>
      ) : tokenCheck.data ? (
        <form ref={formRef} onSubmit={submit} noValidate style={authFormStyle}>
          <NewPasswordFields value={value} onChange={setValue} errors={errors} policy={policy.data} autoFocus />
          <Button type="submit" appearance="primary" disabled={pending}>
            {t('auth:resetPassword.submit')}
          </Button>
        </form>
      ) : null}
    </AuthCard>
  );
}

/** Whether the set-password link came from an invitation (the first password, not a changed one). */
export const isInvitation = (query: URLSearchParams) => query.get(PASSWORD_LINK_INVITATION_FLAG) === '1';

export function ResetPasswordSuccessPage() {
  const { t } = useTranslation();
  const invitation = isInvitation(useSearchParams()[0]);
  return (
    <AuthCard>
      <PageHeading focusOnMount>{t(invitation ? 'auth:resetPassword.firstSuccessTitle' : 'auth:resetPassword.successTitle')}</PageHeading>
      <p>{t(invitation ? 'auth:resetPassword.firstSuccessText' : 'auth:resetPassword.successText')}</p>
      <RouterLink to={ROUTES.login}>{t('auth:common.toLogin')}</RouterLink>
    </AuthCard>
  );
}
