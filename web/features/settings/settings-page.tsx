import {
  Button,
  Card,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  DialogTrigger,
  Field,
  Input,
  Select,
  Subtitle1,
} from '@fluentui/react-components';
import { isApiError } from '@shared/api/api-error';
import { postChangePassword, postTotpReset } from '@shared/api/endpoints/account';
import { getPasswordPolicy } from '@shared/api/endpoints/pre-login';
import { LANGUAGES } from '@shared/contract/constants';
import { LANGUAGE_NAMES } from '@shared/i18n/i18n';
import { Alert } from '@web/components/alert';
import { NewPasswordFields, type NewPasswordValue } from '@web/components/new-password-fields';
import { PageHeading } from '@web/components/page-heading';
import { apiClient } from '@web/lib/api-client';
import { authStore, useAuthState } from '@web/lib/auth';
import { changeLanguage, currentLanguage } from '@web/lib/i18n';
import { useNotify } from '@web/lib/toasts';
import { focusFirstInvalid, newPasswordMessages, requiredMessage } from '@web/lib/validation';
import { useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
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

function TwoFactorSection() {
  const { t } = useTranslation();
  const notify = useNotify();
  const id = useId();
  const { user } = useAuthState();
  const [open, setOpen] = useState(false);
  const [pending, setPending] = useState(false);

  async function reset() {
    setPending(true);
    try {
      await postTotpReset(apiClient);
      await authStore.reloadUser();
      notify('success', t('settings:twoFactor.resetDone'));
      setOpen(false);
    } catch {
      notify('error', t('auth:errors.generalError'));
    } finally {
      setPending(false);
    }
  }

  return (
    <Card style={sectionStyle} role="region" aria-labelledby={id}>
      <Subtitle1 as="h2" id={id}>
        {t('settings:twoFactor.title')}
      </Subtitle1>
      <p style={{ margin: 0 }}>{user?.totpEnabled ? t('settings:twoFactor.enabled') : t('settings:twoFactor.disabled')}</p>
      <Dialog open={open} onOpenChange={(_e, data) => setOpen(data.open)}>
        <div>
          <DialogTrigger disableButtonEnhancement>
            <Button disabled={!user?.totpEnabled}>{t('settings:twoFactor.reset')}</Button>
          </DialogTrigger>
        </div>
        <DialogSurface>
          <DialogBody>
            <DialogTitle>{t('settings:twoFactor.confirmTitle')}</DialogTitle>
            <DialogContent>{t('settings:twoFactor.confirmText')}</DialogContent>
            <DialogActions>
              <DialogTrigger disableButtonEnhancement>
                <Button appearance="secondary">{t('common:actions.cancel')}</Button>
              </DialogTrigger>
              <Button appearance="primary" onClick={() => void reset()} disabled={pending}>
                {t('settings:twoFactor.reset')}
              </Button>
            </DialogActions>
          </DialogBody>
        </DialogSurface>
      </Dialog>
    </Card>
  );
}

/**
 * Account settings: language, password change, two-factor reset (issue 3 §3); `sections` are
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
