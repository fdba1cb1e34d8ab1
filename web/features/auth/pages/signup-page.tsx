import { Button, Field, Input, Spinner } from '@fluentui/react-components';
import { isApiError } from '@shared/api/api-error';
import { Alert } from '@web/components/alert';
import { NewPasswordFields, type NewPasswordValue } from '@web/components/new-password-fields';
import { PageHeading } from '@web/components/page-heading';
import { RouterLink } from '@web/components/router-link';
import { currentLanguage } from '@web/lib/i18n';
import { ROUTES } from '@web/lib/routes';
import { emailMessage, focusFirstInvalid, newPasswordMessages } from '@web/lib/validation';
import { useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { usePasswordPolicy } from '../api/password-policy';
import { signUp, useSignupInfo } from '../api/signup';
import { AuthCard, authFormStyle } from '../auth-layout';
import { ANALYTICS_ACTIONS } from '@web/lib/analytics/actions';
import { track } from '@web/lib/analytics/analytics';

type Failure = 'notEnabled' | 'rateLimited' | 'policy' | 'general';

/**
 * Self-registration (issue 17 §1; /webui/signup leads here). Only while enabled in System
 * settings; afterwards the address is verified with the mailed code at the normal sign-in.
 */
export function SignupPage() {
  const { t } = useTranslation();
  const info = useSignupInfo();
  const policy = usePasswordPolicy();
  const formRef = useRef<HTMLFormElement>(null);
  const [email, setEmail] = useState('');
  const [firstName, setFirstName] = useState('');
  const [lastName, setLastName] = useState('');
  const [password, setPassword] = useState<NewPasswordValue>({ password: '', confirmation: '' });
  const [errors, setErrors] = useState<{ email?: string; password?: string; confirmation?: string }>({});
  const [failure, setFailure] = useState<Failure | null>(null);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const next = { email: emailMessage(t, email.trim()), ...newPasswordMessages(t, password.password, password.confirmation, policy.data) };
    setErrors(next);
    if (next.email || next.password || next.confirmation) {
      requestAnimationFrame(() => focusFirstInvalid(formRef.current));
      return;
    }
    setPending(true);
    setFailure(null);
    try {
      await signUp({
        email: email.trim(),
        password: password.password,
        language: currentLanguage(),
        ...(firstName.trim() ? { firstName: firstName.trim() } : {}),
        ...(lastName.trim() ? { lastName: lastName.trim() } : {}),
      });
      setSentTo(email.trim());
    } catch (error) {
      const status = isApiError(error) ? error.status : 0;
      track(ANALYTICS_ACTIONS.signupFailed, { status });
      setFailure(status === 403 ? 'notEnabled' : status === 429 ? 'rateLimited' : status === 400 ? 'policy' : 'general');
    } finally {
      setPending(false);
    }
  }

  if (info.isLoading) {
    return (
      <AuthCard>
        <Spinner size="small" label={t('common:loading')} />
      </AuthCard>
    );
  }

  if (!info.data?.enabled || failure === 'notEnabled') {
    return (
      <AuthCard>
        <PageHeading focusOnMount>{t('auth:signup.title')}</PageHeading>
        <Alert type="info">{t('auth:signup.notEnabled')}</Alert>
        <p>
          <RouterLink to={ROUTES.login}>{t('auth:common.toLogin')}</RouterLink>
        </p>
      </AuthCard>
    );
  }

  if (sentTo) {
    return (
      <AuthCard>
        <PageHeading focusOnMount>{t('auth:signup.doneTitle')}</PageHeading>
        <p>{t('auth:signup.doneText', { email: sentTo })}</p>
        <p>{t('auth:signup.doneNext')}</p>
        <RouterLink to={ROUTES.login}>{t('auth:common.toLogin')}</RouterLink>
      </AuthCard>
    );
  }

  return (
    <AuthCard>
      <PageHeading focusOnMount>{t('auth:signup.title')}</PageHeading>
      <p>{t('auth:signup.intro')}</p>
      {failure ? <Alert type="error">{t(`auth:signup.errors.${failure}`)}</Alert> : null}
      <form ref={formRef} onSubmit={submit} noValidate style={authFormStyle}>
        <Field label={t('auth:signup.email')} required validationMessage={errors.email}>
          <Input type="email" name="email" autoComplete="email" value={email} onChange={(_e, data) => setEmail(data.value)} />
        </Field>
        <Field label={t('auth:signup.firstName')}>
          <Input name="given-name" autoComplete="given-name" maxLength={100} value={firstName} onChange={(_e, data) => setFirstName(data.value)} />
        </Field>
        <Field label={t('auth:signup.lastName')}>
          <Input name="family-name" autoComplete="family-name" maxLength={100} value={lastName} onChange={(_e, data) => setLastName(data.value)} />
        </Field>
        <NewPasswordFields value={password} onChange={setPassword} errors={errors} policy={policy.data} />
        <Button type="submit" appearance="primary" disabled={pending}>
          {pending ? t('auth:signup.submitting') : t('auth:signup.submit')}
        </Button>
      </form>
      <p>
        <RouterLink to={ROUTES.login}>{t('auth:signup.haveAccount')}</RouterLink>
      </p>
    </AuthCard>
  );
}
