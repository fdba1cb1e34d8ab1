import { Button, Field, Input } from '@fluentui/react-components';
import { Alert } from '@web/components/alert';
import { PageHeading } from '@web/components/page-heading';
import { focusFirstInvalid, requiredMessage } from '@web/lib/validation';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate } from 'react-router';
import { ROUTES } from '@web/lib/routes';
import { resendVerificationCode } from '../api/verification-resend';
import { AuthCard, authFormStyle } from '../auth-layout';
import { AuthMessageBar } from '../auth-message';
import { refusedForCaptcha } from '../captcha-refusal';
import { loginFlow, type AuthMessage } from '../login-flow';
import { useLoginAttempt, useLoginFlowRedirect } from '../use-login-attempt';
import { ANALYTICS_ACTIONS } from '@web/lib/analytics/actions';
import { track } from '@web/lib/analytics/analytics';

/** Email verification: the server mailed a code; enter it, or have it sent again (SPEC §2). */
export function AccountVerificationPage() {
  const { t } = useTranslation();
  const flowRedirect = useLoginFlowRedirect();
  const { attempt, pending } = useLoginAttempt();
  const formRef = useRef<HTMLFormElement>(null);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string>();
  const [message, setMessage] = useState<AuthMessage | null>(() => loginFlow.takeMessage());
  const [resent, setResent] = useState(false);
  const [resending, setResending] = useState(false);
  const navigate = useNavigate();
  // Back from the captcha screen, which answered for "send a new code": send it now.
  const [captchaForResend] = useState(() => loginFlow.get().captchaAnswer);
  useEffect(() => {
    if (!captchaForResend) return;
    loginFlow.update({ captchaAnswer: null });
    void resend(captchaForResend);
    // Once per captcha answer; resend only reads the flow and sets state.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [captchaForResend]);

  if (flowRedirect) return <Navigate to={flowRedirect} replace />;
  const email = loginFlow.get().entry?.email;

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    track(ANALYTICS_ACTIONS.accountVerificationButton);
    const invalid = requiredMessage(t, code);
    setError(invalid);
    if (invalid) {
      requestAnimationFrame(() => focusFirstInvalid(formRef.current));
      return;
    }
    setResent(false);
    const result = await attempt({ j_verification_code: code });
    if (result) setMessage(result);
  }

  async function resend(captcha: { j_captcha: string; j_captcha_id: string } | null = null) {
    const { credentials } = loginFlow.get();
    if (!credentials) return;
    setResending(true);
    setMessage(null);
    try {
      await resendVerificationCode(credentials, captcha);
      setResent(true);
    } catch (error) {
      setResent(false);
      // After repeated failed sign-ins the resend needs a captcha too: the captcha screen
      // answers for this step and comes back here, which then sends the code.
      const captchaRefusal = refusedForCaptcha(error);
      if (captchaRefusal) {
        loginFlow.update({ captchaFor: ROUTES.accountVerification, captchaAnswer: null, message: captchaRefusal === 'wrong' ? 'wrongCaptcha' : null });
        navigate(ROUTES.captcha);
        return;
      }
      setMessage('resendError');
    } finally {
      setResending(false);
    }
  }

  return (
    <AuthCard>
      <PageHeading>{t('auth:verification.title')}</PageHeading>
      <AuthMessageBar message={message} />
      {resent ? <Alert type="success">{t('auth:verification.resent')}</Alert> : null}
      <p>{email ? t('auth:verification.introWithEmail', { email }) : t('auth:verification.intro')}</p>
      <form ref={formRef} onSubmit={submit} noValidate style={authFormStyle}>
        <Field label={t('auth:verification.code')} required validationMessage={error}>
          <Input name="verification-code" inputMode="numeric" autoComplete="one-time-code" autoFocus value={code} onChange={(_e, data) => setCode(data.value)} />
        </Field>
        <Button type="submit" appearance="primary" disabled={pending}>
          {t('auth:verification.submit')}
        </Button>
        <Button appearance="secondary" onClick={() => void resend()} disabled={resending}>
          {t('auth:verification.resend')}
        </Button>
      </form>
    </AuthCard>
  );
}
