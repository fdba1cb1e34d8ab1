import {
  Button,
  Card,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Field,
  Input,
  Select,
  Subtitle1,
} from '@fluentui/react-components';
import { isApiError } from '@shared/api/api-error';
import { postChangePassword, postOwnTotpConfirm, postOwnTotpRegistration, postTotpReset } from '@shared/api/endpoints/account';
import { getPasswordPolicy } from '@shared/api/endpoints/pre-login';
import type { TotpRegistrationResponse } from '@shared/contract/auth-escalation';
import { AUTH_APP_CODE_LENGTH, LANGUAGES } from '@shared/contract/constants';
import { LANGUAGE_NAMES } from '@shared/i18n/i18n';
import { Alert } from '@web/components/alert';
import { NewPasswordFields, type NewPasswordValue } from '@web/components/new-password-fields';
import { PageHeading } from '@web/components/page-heading';
import { apiClient } from '@web/lib/api-client';
import { authStore, useAuthState } from '@web/lib/auth';
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
        <Select value={currentLanguage()} onChange={(_e, data) => void changeLanguage(data.value)}>
          {LANGUAGES.map((code) => (
            <option key={code} value={code} lang={code}>
              {LANGUAGE_NAMES[code]}
            </option>
          ))}
        </Select>
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

/** Registration from the account settings: password → QR code and manual key → a code confirms it. */
function TotpSetupDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const notify = useNotify();
  const formRef = useRef<HTMLFormElement>(null);
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [registration, setRegistration] = useState<TotpRegistrationResponse | null>(null);
  const [errors, setErrors] = useState<ReauthErrors>({});
  const [pending, setPending] = useState(false);

  function close() {
    setPassword('');
    setCode('');
    setRegistration(null);
    setErrors({});
    onClose();
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const next: ReauthErrors = registration ? { code: sixDigitCodeMessage(t, code) } : { password: requiredMessage(t, password) };
    setErrors(next);
    if (next.password || next.code) {
      requestAnimationFrame(() => focusFirstInvalid(formRef.current));
      return;
    }
    setPending(true);
    try {
      if (!registration) {
        setRegistration(await postOwnTotpRegistration(apiClient, { password }));
        setPassword('');
      } else {
        await postOwnTotpConfirm(apiClient, { code: code.replace(/\s+/g, '') });
        await authStore.reloadUser();
        notify('success', t('settings:twoFactor.setupDone'));
        close();
      }
    } catch (error) {
      const fieldErrors = reauthErrorsOf(t, error);
      if (fieldErrors) {
        setErrors(fieldErrors);
        requestAnimationFrame(() => focusFirstInvalid(formRef.current));
      } else notify('error', t('auth:errors.generalError'));
    } finally {
      setPending(false);
    }
  }

  const secret = registration?.secret.replace(/(.{4})/g, '$1 ').trim();
  return (
    <Dialog open={open} onOpenChange={(_e, data) => (data.open ? undefined : close())}>
      <DialogSurface>
        <form ref={formRef} onSubmit={submit} noValidate>
          <DialogBody>
            <DialogTitle>{t('settings:twoFactor.setupTitle')}</DialogTitle>
            <DialogContent style={{ display: 'grid', gap: 12 }}>
              {!registration ? (
                <>
                  <p style={{ margin: 0 }}>{t('settings:twoFactor.setupIntro')}</p>
                  <Field label={t('settings:password.current')} required validationMessage={errors.password}>
                    <Input type="password" name="current-password" autoComplete="current-password" value={password} onChange={(_e, data) => setPassword(data.value)} />
                  </Field>
                </>
              ) : (
                <>
                  <ol style={{ paddingLeft: 20, margin: 0, display: 'grid', gap: 8 }}>
                    <li>{t('auth:totpRegistration.stepInstall')}</li>
                    <li>{t('auth:totpRegistration.stepScan')}</li>
                    <li>{t('auth:totpRegistration.stepCode', { count: AUTH_APP_CODE_LENGTH })}</li>
                  </ol>
                  <div style={{ display: 'grid', justifyItems: 'center', gap: 8 }}>
                    <img src={registration.qrCodeDataUrl} width={200} height={200} alt={t('auth:totpRegistration.qrAlt')} />
                    <span>{t('auth:totpRegistration.manualKey')}</span>
                    <code data-testid="totp-secret" style={{ fontSize: 16, letterSpacing: 1, wordBreak: 'break-all' }}>
                      {secret}
                    </code>
                  </div>
                  <Field label={t('auth:totp.code')} required validationMessage={errors.code}>
                    <Input name="auth-app-code" inputMode="numeric" autoComplete="one-time-code" value={code} onChange={(_e, data) => setCode(data.value)} />
                  </Field>
                </>
              )}
            </DialogContent>
            <DialogActions>
              <Button appearance="secondary" onClick={close}>
                {t('common:actions.cancel')}
              </Button>
              <Button type="submit" appearance="primary" disabled={pending}>
                {registration ? t('settings:twoFactor.setupConfirm') : t('settings:twoFactor.setupContinue')}
              </Button>
            </DialogActions>
          </DialogBody>
        </form>
      </DialogSurface>
    </Dialog>
  );
}

/** Removal: a confirmation that is also the re-authentication (password and a current code). */
function TotpResetDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const notify = useNotify();
  const formRef = useRef<HTMLFormElement>(null);
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [errors, setErrors] = useState<ReauthErrors>({});
  const [pending, setPending] = useState(false);

  function close() {
    setPassword('');
    setCode('');
    setErrors({});
    onClose();
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const next: ReauthErrors = { password: requiredMessage(t, password), code: sixDigitCodeMessage(t, code) };
    setErrors(next);
    if (next.password || next.code) {
      requestAnimationFrame(() => focusFirstInvalid(formRef.current));
      return;
    }
    setPending(true);
    try {
      await postTotpReset(apiClient, { password, code: code.replace(/\s+/g, '') });
      await authStore.reloadUser();
      notify('success', t('settings:twoFactor.resetDone'));
      close();
    } catch (error) {
      const fieldErrors = reauthErrorsOf(t, error);
      if (fieldErrors) {
        setErrors(fieldErrors);
        requestAnimationFrame(() => focusFirstInvalid(formRef.current));
      } else notify('error', t('auth:errors.generalError'));
    } finally {
      setPending(false);
    }
  }

  return (
    <Dialog open={open} onOpenChange={(_e, data) => (data.open ? undefined : close())}>
      <DialogSurface>
        <form ref={formRef} onSubmit={submit} noValidate>
          <DialogBody>
            <DialogTitle>{t('settings:twoFactor.confirmTitle')}</DialogTitle>
            <DialogContent style={{ display: 'grid', gap: 12 }}>
              <p style={{ margin: 0 }}>{t('settings:twoFactor.confirmText')}</p>
              <Field label={t('settings:password.current')} required validationMessage={errors.password}>
                <Input type="password" name="current-password" autoComplete="current-password" value={password} onChange={(_e, data) => setPassword(data.value)} />
              </Field>
              <Field label={t('auth:totp.code')} required validationMessage={errors.code}>
                <Input name="auth-app-code" inputMode="numeric" autoComplete="one-time-code" value={code} onChange={(_e, data) => setCode(data.value)} />
              </Field>
            </DialogContent>
            <DialogActions>
              <Button appearance="secondary" onClick={close}>
                {t('common:actions.cancel')}
              </Button>
              <Button type="submit" appearance="primary" disabled={pending}>
                {t('settings:twoFactor.reset')}
              </Button>
            </DialogActions>
          </DialogBody>
        </form>
      </DialogSurface>
    </Dialog>
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
      {sections}
    </>
  );
}
