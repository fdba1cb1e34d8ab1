import { Button, Card, Field, Input, Subtitle1, Switch } from '@fluentui/react-components';
import { isApiError } from '@shared/api/api-error';
import { postChangePassword, postOwnTotpConfirm, postOwnTotpRegistration, postTotpReset } from '@shared/api/endpoints/account';
import { getPasswordPolicy } from '@shared/api/endpoints/pre-login';
import type { TotpRegistrationResponse } from '@shared/contract/auth-escalation';
import { AUTH_APP_CODE_LENGTH } from '@shared/contract/constants';
import { Alert } from '@web/components/alert';
import { FormDialog } from '@web/components/form-dialog';
import { LanguageSelect } from '@web/components/language-select';
import { NewPasswordFields, type NewPasswordValue } from '@web/components/new-password-fields';
import { PageHeading } from '@web/components/page-heading';
import { TotpSecret } from '@web/components/totp-secret';
import { setAnalyticsConsent, useAnalyticsConsent } from '@web/lib/analytics/consent';
import { analyticsSettings } from '@web/lib/analytics/settings';
import { apiClient } from '@web/lib/api-client';
import { authStore, useAuthState } from '@web/lib/auth';
import { useConfigState } from '@web/lib/config-store';
import { changeLanguage, currentLanguage } from '@web/lib/i18n';
import { useNotify } from '@web/lib/toasts';
import { focusFirstInvalid, newPasswordMessages, requiredMessage, sixDigitCodeMessage } from '@web/lib/validation';
import { useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import useSWR from 'swr';

const sectionStyle = { padding: 24, marginBottom: 16, display: 'grid', gap: 16, maxWidth: 560 } as const;

function LanguageSection() {
  const { t, i18n } = useTranslation();
  const id = useId();
  void i18n.language;
  return (
    <Card style={sectionStyle} role="region" aria-labelledby={id}>
      <Subtitle1 as="h2" id={id}>
        {t('settings:language.title')}
      </Subtitle1>
      <Field label={t('settings:language.label')}>
        <LanguageSelect value={currentLanguage()} onChange={(language) => void changeLanguage(language)} />
      </Field>
    </Card>
  );
}

function PasswordSection() {
  const { t } = useTranslation();
  const notify = useNotify();
  const id = useId();
  const policy = useSWR('auth/password-policy', () => getPasswordPolicy(apiClient), { revalidateOnFocus: false });
  const formRef = useRef<HTMLFormElement>(null);
  const [current, setCurrent] = useState('');
  const [value, setValue] = useState<NewPasswordValue>({ password: '', confirmation: '' });
  const [errors, setErrors] = useState<{ current?: string; password?: string; confirmation?: string }>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const next = { current: requiredMessage(t, current), ...newPasswordMessages(t, value.password, value.confirmation, policy.data) };
    setErrors(next);
    if (next.current || next.password || next.confirmation) {
      requestAnimationFrame(() => focusFirstInvalid(formRef.current));
      return;
    }
    setPending(true);
    setFailure(null);
    try {
      await postChangePassword(apiClient, { currentPassword: current, newPassword: value.password });
      setCurrent('');
      setValue({ password: '', confirmation: '' });
      notify('success', t('settings:password.changed'));
    } catch (error) {
      const reason = isApiError(error) ? (error.error?.metadata as { reason?: string } | undefined)?.reason : undefined;
      if (reason === 'currentPassword') setErrors({ current: t('settings:password.currentWrong') });
      else setFailure(t('auth:errors.passwordSubmitError'));
    } finally {
      setPending(false);
    }
  }

  return (
    <Card style={sectionStyle} role="region" aria-labelledby={id}>
      <Subtitle1 as="h2" id={id}>
        {t('settings:password.title')}
      </Subtitle1>
      {failure ? <Alert type="error">{failure}</Alert> : null}
      <form ref={formRef} onSubmit={submit} noValidate style={{ display: 'grid', gap: 16 }}>
        <Field label={t('settings:password.current')} required validationMessage={errors.current}>
          <Input type="password" name="current-password" autoComplete="current-password" value={current} onChange={(_e, data) => setCurrent(data.value)} />
        </Field>
        <NewPasswordFields value={value} onChange={setValue} errors={errors} policy={policy.data} />
        <div>
          <Button type="submit" appearance="primary" disabled={pending}>
            {t('settings:password.submit')}
          </Button>
        </div>
      </form>
    </Card>
  );
}

type ReauthErrors = { password?: string; code?: string };

/** The server's reason for a refused re-authentication, as field messages (or null: show a general error). */
function reauthErrorsOf(t: TFunction, error: unknown): ReauthErrors | null {
  if (!isApiError(error)) return null;
  if (error.status === 429) return { password: t('settings:twoFactor.tooManyTries') };
  const reason = (error.error?.metadata as { reason?: string } | undefined)?.reason;
  if (reason === 'currentPassword') return { password: t('settings:password.currentWrong') };
  if (reason === 'code') return { code: t('auth:errors.invalidAuthCode') };
  return null;
}

/**
 * The state and submit of a re-authenticating dialog: the checked fields (focus on the first
 * wrong one), the call, the server's refusal as field messages or else a general error toast.
 */
function useReauthForm() {
  const { t } = useTranslation();
  const notify = useNotify();
  const formRef = useRef<HTMLFormElement>(null);
  const [errors, setErrors] = useState<ReauthErrors>({});
  const [pending, setPending] = useState(false);

  function showErrors(next: ReauthErrors) {
    setErrors(next);
    requestAnimationFrame(() => focusFirstInvalid(formRef.current));
  }

  async function run(checked: ReauthErrors, action: () => Promise<void>) {
    setErrors(checked);
    if (checked.password || checked.code) {
      requestAnimationFrame(() => focusFirstInvalid(formRef.current));
      return;
    }
    setPending(true);
    try {
      await action();
    } catch (error) {
      const fieldErrors = reauthErrorsOf(t, error);
      if (fieldErrors) showErrors(fieldErrors);
      else notify('error', t('auth:errors.generalError'));
    } finally {
      setPending(false);
    }
  }

  return { formRef, errors, clearErrors: () => setErrors({}), pending, run };
}

function CurrentPasswordField({ value, onChange, error }: { value: string; onChange: (value: string) => void; error: string | undefined }) {
  const { t } = useTranslation();
  return (
    <Field label={t('settings:password.current')} required validationMessage={error}>
      <Input type="password" name="current-password" autoComplete="current-password" value={value} onChange={(_e, data) => onChange(data.value)} />
    </Field>
  );
}

function AuthAppCodeField({ value, onChange, error }: { value: string; onChange: (value: string) => void; error: string | undefined }) {
  const { t } = useTranslation();
  return (
    <Field label={t('auth:totp.code')} required validationMessage={error}>
      <Input name="auth-app-code" inputMode="numeric" autoComplete="one-time-code" value={value} onChange={(_e, data) => onChange(data.value)} />
    </Field>
  );
}

/** Registration from the account settings: password → QR code and manual key → a code confirms it. */
function TotpSetupDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const notify = useNotify();
  const form = useReauthForm();
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [registration, setRegistration] = useState<TotpRegistrationResponse | null>(null);

  function close() {
    setPassword('');
    setCode('');
    setRegistration(null);
    form.clearErrors();
    onClose();
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const checked: ReauthErrors = registration ? { code: sixDigitCodeMessage(t, code) } : { password: requiredMessage(t, password) };
    await form.run(checked, async () => {
      if (!registration) {
        setRegistration(await postOwnTotpRegistration(apiClient, { password }));
        setPassword('');
      } else {
        await postOwnTotpConfirm(apiClient, { code: code.replace(/\s+/g, '') });
        await authStore.reloadUser();
        notify('success', t('settings:twoFactor.setupDone'));
        close();
      }
    });
  }

  return (
    <FormDialog
      open={open}
      onClose={close}
      title={t('settings:twoFactor.setupTitle')}
      formRef={form.formRef}
      onSubmit={submit}
      submitLabel={registration ? t('settings:twoFactor.setupConfirm') : t('settings:twoFactor.setupContinue')}
      submitDisabled={form.pending}
      contentStyle={{ display: 'grid', gap: 12 }}
    >
      {!registration ? (
        <>
          <p style={{ margin: 0 }}>{t('settings:twoFactor.setupIntro')}</p>
          <CurrentPasswordField value={password} onChange={setPassword} error={form.errors.password} />
        </>
      ) : (
        <>
          <ol style={{ paddingLeft: 20, margin: 0, display: 'grid', gap: 8 }}>
            <li>{t('auth:totpRegistration.stepInstall')}</li>
            <li>{t('auth:totpRegistration.stepScan')}</li>
            <li>{t('auth:totpRegistration.stepCode', { count: AUTH_APP_CODE_LENGTH })}</li>
          </ol>
          <div style={{ display: 'grid', justifyItems: 'center', gap: 8 }}>
            <TotpSecret registration={registration} />
          </div>
          <AuthAppCodeField value={code} onChange={setCode} error={form.errors.code} />
        </>
      )}
    </FormDialog>
  );
}

/** Removal: a confirmation that is also the re-authentication (password and a current code). */
function TotpResetDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const notify = useNotify();
  const form = useReauthForm();
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');

  function close() {
    setPassword('');
    setCode('');
    form.clearErrors();
    onClose();
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    await form.run({ password: requiredMessage(t, password), code: sixDigitCodeMessage(t, code) }, async () => {
      await postTotpReset(apiClient, { password, code: code.replace(/\s+/g, '') });
      await authStore.reloadUser();
      notify('success', t('settings:twoFactor.resetDone'));
      close();
    });
  }

  return (
    <FormDialog
      open={open}
      onClose={close}
      title={t('settings:twoFactor.confirmTitle')}
      formRef={form.formRef}
      onSubmit={submit}
      submitLabel={t('settings:twoFactor.reset')}
      submitDisabled={form.pending}
      contentStyle={{ display: 'grid', gap: 12 }}
    >
      <p style={{ margin: 0 }}>{t('settings:twoFactor.confirmText')}</p>
      <CurrentPasswordField value={password} onChange={setPassword} error={form.errors.password} />
      <AuthAppCodeField value={code} onChange={setCode} error={form.errors.code} />
    </FormDialog>
  );
}

function TwoFactorSection() {
  const { t } = useTranslation();
  const id = useId();
  const { user } = useAuthState();
  const [dialog, setDialog] = useState<'setup' | 'reset' | null>(null);

  return (
    <Card style={sectionStyle} role="region" aria-labelledby={id}>
      <Subtitle1 as="h2" id={id}>
        {t('settings:twoFactor.title')}
      </Subtitle1>
      <p style={{ margin: 0 }}>{user?.totpEnabled ? t('settings:twoFactor.enabled') : t('settings:twoFactor.disabled')}</p>
      <div>
        {user?.totpEnabled ? (
          <Button onClick={() => setDialog('reset')}>{t('settings:twoFactor.reset')}</Button>
        ) : (
          <Button appearance="primary" onClick={() => setDialog('setup')}>
            {t('settings:twoFactor.setup')}
          </Button>
        )}
      </div>
      <TotpSetupDialog open={dialog === 'setup'} onClose={() => setDialog(null)} />
      <TotpResetDialog open={dialog === 'reset'} onClose={() => setDialog(null)} />
    </Card>
  );
}

/** Usage analytics, when the operator configured it: this browser's answer to the consent banner, changeable. */
function AnalyticsSection() {
  const { t } = useTranslation();
  const id = useId();
  const { status, config } = useConfigState();
  const consent = useAnalyticsConsent();
  if (status !== 'loaded' || !analyticsSettings(config)) return null;
  return (
    <Card style={sectionStyle} role="region" aria-labelledby={id}>
      <Subtitle1 as="h2" id={id}>
        {t('settings:analytics.title')}
      </Subtitle1>
      <p style={{ margin: 0 }}>{t('settings:analytics.explanation')}</p>
      <Switch
        label={t('settings:analytics.allow')}
        checked={consent === 'granted'}
        onChange={(_event, data) => setAnalyticsConsent(data.checked ? 'granted' : 'denied')}
      />
    </Card>
  );
}

/**
 * Account settings: language, password change, two-factor registration and removal (both with
 * re-authentication); `sections` are
 * sections other features contribute (the app composes them, e.g. SecuPass).
 */
export function SettingsPage({ sections }: { sections?: ReactNode }) {
  const { t } = useTranslation();
  return (
    <>
      <PageHeading focusOnMount>{t('settings:title')}</PageHeading>
      <LanguageSection />
      <PasswordSection />
      <TwoFactorSection />
      <AnalyticsSection />
      {sections}
    </>
  );
}
