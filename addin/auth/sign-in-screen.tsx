import { Button, Checkbox, Field, Input, MessageBar, MessageBarBody, Subtitle1, Text, makeStyles } from '@fluentui/react-components';
import { isApiError } from '@shared/api/api-error';
import { getConfigProfile } from '@shared/api/endpoints/config-profile';
import { getCurrentUser } from '@shared/api/endpoints/current-user';
import { postLogin } from '@shared/api/endpoints/login';
import { LoginAuthorizationError, parseAuthorizationErrors } from '@shared/auth/authorization-errors';
import { AUTHORIZATION_ERROR } from '@shared/contract/errors';
import { SETTING_KEYS } from '@shared/contract/settings';
import type { User } from '@shared/contract/user';
import type { OfficeHost } from '@addin/office/office-host';
import type { AddinClient } from '@addin/session/addin-client';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ADDIN_ERROR_KEYS } from '../send/addin-errors';

const useStyles = makeStyles({
  form: { display: 'grid', gap: '12px' },
});

/** Where the web sign-in runs when the pane cannot finish it itself (captcha, SSO, registration steps). */
export const WEB_SIGN_IN_DIALOG_PATH = '/addin/dialog.html';

interface Props {
  addin: AddinClient;
  host: OfficeHost;
  onSignedIn(user: User): void;
}

type Step = 'credentials' | 'code' | 'disclaimer';

/**
 * The auth guard's sign-in (SPEC §2): username or email and password, the authentication-app
 * code and the login disclaimer here; captcha, SSO and the registration steps in the web
 * sign-in, opened in an Office dialog, which hands a bearer token back.
 */
export function SignInScreen({ addin, host, onSignedIn }: Props) {
  const { t } = useTranslation();
  const styles = useStyles();
  const [login, setLogin] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [disclaimerText, setDisclaimerText] = useState<string | null>(null);
  const [disclaimerAccepted, setDisclaimerAccepted] = useState(false);
  const [step, setStep] = useState<Step>('credentials');
  const [error, setError] = useState<string | null>(null);
  const [needsWeb, setNeedsWeb] = useState(false);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const { user, sessionToken } = await postLogin(
        addin.client,
        { username: login.trim(), password },
        {
          ...(step === 'code' || code ? { j_auth_app_code: code } : {}),
          ...(disclaimerAccepted ? { j_login_disclaimer_accepted: 'true' as const } : {}),
        },
        { addin: true },
      );
      if (!sessionToken) throw new Error('The server issued no add-in session');
      addin.setToken(sessionToken);
      onSignedIn(user);
    } catch (cause) {
      await react(cause);
    } finally {
      setBusy(false);
    }
  }

  async function react(cause: unknown) {
    const entries = isApiError(cause) ? parseAuthorizationErrors(cause.headers) : null;
    const refusal = entries ? new LoginAuthorizationError(entries, cause) : null;
    if (!refusal) {
      // Sign-in throttling (429): the account's delay or the address's limit.
      if (isApiError(cause) && cause.status === 429) {
        setError(t('addin:signIn.tooManyTries'));
        return;
      }
      const forbidden = isApiError(cause) && cause.status === 403;
      setError(t(forbidden ? ADDIN_ERROR_KEYS.forbidden : ADDIN_ERROR_KEYS.unknown));
      return;
    }
    const entry = refusal.entries[0]!;
    switch (entry.authorizationError) {
      case AUTHORIZATION_ERROR.WRONG_CREDENTIALS:
        setError(t('addin:signIn.wrongCredentials'));
        return;
      case AUTHORIZATION_ERROR.TOTP_AUTHORIZATION_FAILED:
        if (step === 'code' && entry.message !== 'required') setError(t('addin:signIn.wrongCode'));
        setStep('code');
        return;
      case AUTHORIZATION_ERROR.LOGIN_DISCLAIMER_REQUIRED: {
        const config = await getConfigProfile(addin.client).catch(() => ({}) as Record<string, unknown>);
        const text = config[SETTING_KEYS.loginDisclaimerText];
        setDisclaimerText(typeof text === 'string' ? text : '');
        setStep('disclaimer');
        return;
      }
      case AUTHORIZATION_ERROR.USER_DISABLED:
        setError(t('addin:signIn.disabled'));
        return;
      default:
        // Captcha, TOTP registration, email verification, sign-up: the web sign-in handles them.
        setError(t('addin:signIn.continueInWeb'));
        setNeedsWeb(true);
    }
  }

  async function signInWithWeb() {
    setError(null);
    try {
      const answer = JSON.parse(await host.openDialog(`${window.location.origin}${WEB_SIGN_IN_DIALOG_PATH}`)) as { token?: string; error?: string };
      if (!answer.token) {
        setError(t(answer.error === 'forbidden' ? ADDIN_ERROR_KEYS.forbidden : ADDIN_ERROR_KEYS.unknown));
        return;
      }
      addin.setToken(answer.token);
      const { user } = await getCurrentUser(addin.client);
      if (user) onSignedIn(user);
      else setError(t(ADDIN_ERROR_KEYS.unknown));
    } catch {
      setError(t(ADDIN_ERROR_KEYS.unknown));
    }
  }

  return (
    <form className={styles.form} onSubmit={(e) => void submit(e)} aria-labelledby="addin-sign-in-title">
      <Subtitle1 as="h1" id="addin-sign-in-title">
        {t('addin:signIn.title')}
      </Subtitle1>
      {error && (
        <MessageBar intent="error" role="alert">
          <MessageBarBody>{error}</MessageBarBody>
        </MessageBar>
      )}
      <Field label={t('addin:signIn.login')} required>
        <Input value={login} onChange={(_, d) => setLogin(d.value)} autoComplete="username" disabled={step !== 'credentials'} />
      </Field>
      <Field label={t('addin:signIn.password')} required>
        <Input type="password" value={password} onChange={(_, d) => setPassword(d.value)} autoComplete="current-password" disabled={step !== 'credentials'} />
      </Field>
      {step === 'code' && (
        <Field label={t('addin:signIn.code')} hint={t('addin:signIn.codeHint')} required>
          <Input value={code} onChange={(_, d) => setCode(d.value)} inputMode="numeric" autoComplete="one-time-code" maxLength={12} />
        </Field>
      )}
      {step === 'disclaimer' && (
        <>
          {disclaimerText && <Text>{disclaimerText}</Text>}
          <Checkbox checked={disclaimerAccepted} onChange={(_, d) => setDisclaimerAccepted(d.checked === true)} label={t('addin:signIn.acceptDisclaimer')} />
        </>
      )}
      <Button type="submit" appearance="primary" disabled={busy || (step === 'disclaimer' && !disclaimerAccepted)}>
        {t('addin:signIn.submit')}
      </Button>
      {needsWeb && (
        <Button type="button" onClick={() => void signInWithWeb()}>
          {t('addin:signIn.openWeb')}
        </Button>
      )}
    </form>
  );
}
