import { TooltipButton } from '@web/components/tooltip-button';
import { Button, Field, Input } from '@fluentui/react-components';
import { ArrowClockwiseRegular } from '@fluentui/react-icons';
import { PageHeading } from '@web/components/page-heading';
import { focusFirstInvalid, requiredMessage } from '@web/lib/validation';
import { useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate } from 'react-router';
import { useCaptcha } from '../api/captcha';
import { AuthCard, authFormStyle } from '../auth-layout';
import { AuthMessageBar } from '../auth-message';
import { loginFlow, type AuthMessage } from '../login-flow';
import { useLoginAttempt, useLoginFlowRedirect } from '../use-login-attempt';
import { ANALYTICS_ACTIONS } from '@web/lib/analytics/actions';
import { track } from '@web/lib/analytics/analytics';

/** After repeated failures: solve the self-hosted captcha, then the login is retried (SPEC §2, DESIGN §9). */
export function CaptchaPage() {
  const { t } = useTranslation();
  const flowRedirect = useLoginFlowRedirect();
  const captcha = useCaptcha();
  const { attempt, pending } = useLoginAttempt();
  const navigate = useNavigate();
  const formRef = useRef<HTMLFormElement>(null);
  const [answer, setAnswer] = useState('');
  const [error, setError] = useState<string>();
  const [message, setMessage] = useState<AuthMessage | null>(() => loginFlow.takeMessage());

  if (flowRedirect) return <Navigate to={flowRedirect} replace />;

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    track(ANALYTICS_ACTIONS.captchaButton);
    const invalid = requiredMessage(t, answer);
    setError(invalid);
    if (invalid || !captcha.data) {
      requestAnimationFrame(() => focusFirstInvalid(formRef.current));
      return;
    }
    const { captchaFor } = loginFlow.get();
    if (captchaFor) {
      // Asked by a pre-login call (authentication app registration): the answer goes back there.
      loginFlow.update({ captchaFor: null, captchaAnswer: { j_captcha: answer.trim(), j_captcha_id: captcha.data.captchaId } });
      void captcha.mutate();
      navigate(captchaFor);
      return;
    }
    const result = await attempt({ j_captcha: answer.trim(), j_captcha_id: captcha.data.captchaId });
    // A captcha is single use: whatever happened, take a fresh one.
    setAnswer('');
    void captcha.mutate();
    if (result) setMessage(result);
  }

  return (
    <AuthCard>
      <PageHeading>{t('auth:captcha.title')}</PageHeading>
      <AuthMessageBar message={message ?? (captcha.error ? 'generalError' : null)} />
      <p>{t('auth:captcha.intro')}</p>
      <form ref={formRef} onSubmit={submit} noValidate style={authFormStyle}>
        <div style={{ display: 'flex', alignItems: 'center', gap: 8 }}>
          <div style={{ background: '#fff', border: '1px solid #ccc', borderRadius: 4, minHeight: 60, minWidth: 150, display: 'grid', placeItems: 'center' }}>
            {captcha.data ? (
              <img src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(captcha.data.svg)}`} alt={t('auth:captcha.imageAlt')} />
            ) : null}
          </div>
          <TooltipButton icon={<ArrowClockwiseRegular />} onClick={() => void captcha.mutate()} label={t('auth:captcha.reload')} />
        </div>
        <Field label={t('auth:captcha.answer')} required validationMessage={error}>
          <Input name="captcha" autoComplete="off" autoFocus value={answer} onChange={(_e, data) => setAnswer(data.value)} />
        </Field>
        <Button type="submit" appearance="primary" disabled={pending || !captcha.data}>
          {t('auth:captcha.submit')}
        </Button>
      </form>
    </AuthCard>
  );
}
