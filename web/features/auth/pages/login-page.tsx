import { RouterLink } from '@web/components/router-link';
import { Body1, Button, Divider, Field, Input } from '@fluentui/react-components';
import { PageHeading } from '@web/components/page-heading';
import { useAuthState } from '@web/lib/auth';
import { ROUTES, safeContinueTarget } from '@web/lib/routes';
import { focusFirstInvalid, requiredMessage } from '@web/lib/validation';
import { useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useSearchParams } from 'react-router';
import { useSignupInfo } from '../api/signup';
import { useSsoInfo } from '../api/sso-info';
import { AuthCard, authFormStyle } from '../auth-layout';
import { AuthMessageBar } from '../auth-message';
import { loginFlow, type AuthMessage } from '../login-flow';
import { useLoginAttempt } from '../use-login-attempt';
import { ANALYTICS_ACTIONS } from '@web/lib/analytics/actions';
import { track } from '@web/lib/analytics/analytics';

/** Sign in with username or email and password (SPEC §2); escalations follow from the answer. */
export function LoginPage() {
  const { t } = useTranslation();
  const { user } = useAuthState();
  const [params] = useSearchParams();
  const continueTo = safeContinueTarget(params.get('continue'));
  const sso = useSsoInfo();
  const signup = useSignupInfo();
  const { attempt, pending } = useLoginAttempt();
  const formRef = useRef<HTMLFormElement>(null);
  const remembered = loginFlow.get().credentials;
  const [username, setUsername] = useState(remembered?.username ?? '');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<{ username?: string; password?: string }>({});
  const [message, setMessage] = useState<AuthMessage | null>(() => loginFlow.takeMessage() ?? (params.get('sso') === 'failed' ? 'ssoFailed' : null));

  if (user) return <Navigate to={continueTo ?? ROUTES.inbox} replace />;

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    track(ANALYTICS_ACTIONS.loginButton);
    const next = { username: requiredMessage(t, username), password: requiredMessage(t, password) };
    setErrors(next);
    if (next.username || next.password) {
      requestAnimationFrame(() => focusFirstInvalid(formRef.current));
      return;
    }
    setMessage(null);
    loginFlow.reset();
    loginFlow.update({ credentials: { username: username.trim(), password }, continueTo });
    const result = await attempt();
    if (result) {
      setMessage(result);
      setPassword('');
    }
  }

  return (
    <AuthCard>
      <PageHeading>{t('auth:login.title')}</PageHeading>
      <AuthMessageBar message={message} />
      <form ref={formRef} onSubmit={submit} noValidate style={authFormStyle}>
        <Field label={t('auth:login.username')} required validationMessage={errors.username}>
          <Input name="username" autoComplete="username" autoFocus value={username} onChange={(_e, data) => setUsername(data.value)} />
        </Field>
        <Field label={t('auth:login.password')} required validationMessage={errors.password}>
          <Input name="password" type="password" autoComplete="current-password" value={password} onChange={(_e, data) => setPassword(data.value)} />
        </Field>
        <Body1>
          <RouterLink to={ROUTES.requestResetPassword} onClick={() => track(ANALYTICS_ACTIONS.passwordForgottenButton)}>{t('auth:login.forgotPassword')}</RouterLink>
        </Body1>
        <Button type="submit" appearance="primary" disabled={pending}>
          {pending ? t('auth:login.submitting') : t('auth:login.submit')}
        </Button>
      </form>
      {sso.data?.enabled && sso.data.url ? (
        <>
          <Divider style={{ margin: '16px 0' }}>{t('auth:login.or')}</Divider>
          <Button appearance="secondary" style={{ width: '100%' }} onClick={() => {
            track(ANALYTICS_ACTIONS.ssoButton);
            window.location.assign(ssoStartUrl(sso.data?.url ?? '', continueTo));
          }}>
            {t('auth:login.sso')}
          </Button>
        </>
      ) : null}
      {signup.data?.enabled ? (
        <Body1 as="p" style={{ marginTop: 16 }}>
          {t('auth:login.noAccount')} <RouterLink to={ROUTES.signup} onClick={() => track(ANALYTICS_ACTIONS.signupButton)}>{t('auth:login.signup')}</RouterLink>
        </Body1>
      ) : null}
      <Body1 as="p" style={{ marginTop: 16 }}>
        <RouterLink to={ROUTES.terms}>{t('auth:terms.link')}</RouterLink>
      </Body1>
    </AuthCard>
  );
}

/** The built-in sign-on (a path on this server) takes the deep-link target along. */
function ssoStartUrl(url: string, continueTo: string | null): string {
  if (!continueTo || !url.startsWith('/')) return url;
  return `${url}${url.includes('?') ? '&' : '?'}continue=${encodeURIComponent(continueTo)}`;
}
