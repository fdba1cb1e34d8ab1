import { Button, Card, Field, Input, makeStyles, Spinner } from '@fluentui/react-components';
import { isApiError } from '@shared/api/api-error';
import { getPasswordPolicy } from '@shared/api/endpoints/pre-login';
import { ROOM_REQUEST_WEB_LINKS, safeBackPath } from '@shared/contract/room-requests';
import { Alert } from '@web/components/alert';
import { NewPasswordFields, type NewPasswordValue } from '@web/components/new-password-fields';
import { PageHeading } from '@web/components/page-heading';
import { RouterLink } from '@web/components/router-link';
import { apiClient } from '@web/lib/api-client';
import { authStore } from '@web/lib/auth';
import { useFragmentToken } from '@web/lib/fragment-token';
import { currentLanguage } from '@web/lib/i18n';
import { loginPathFor } from '@web/lib/routes';
import { focusFirstInvalid, newPasswordMessages } from '@web/lib/validation';
import { useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import useSWR from 'swr';
import { signUpForRoomRequest, useRoomRequestInfo } from './api/room-request';

const useStyles = makeStyles({
  card: { maxWidth: '480px', margin: '0 auto', padding: '24px', display: 'grid', gap: '16px' },
  form: { display: 'grid', gap: '16px' },
});

/**
 * Delivery signup for a data-room request (`/auth/delivery-signup-dar#token=…`, the request
 * mail's link for an unregistered address; an older mail's `?token=` moves into the fragment;
 * web/app picks this page when `token` is given): the
 * account of the requested address (password policy), then sign-in and the send page's dar
 * variant (`back` passed on).
 */
export function DarSignupPage() {
  const { t } = useTranslation();
  const styles = useStyles();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const token = useFragmentToken('token') ?? '';
  const back = safeBackPath(params.get('back'));
  const info = useRoomRequestInfo(token || null);
  const policy = useSWR('room-request/password-policy', () => getPasswordPolicy(apiClient), { revalidateOnFocus: false });
  const formRef = useRef<HTMLFormElement>(null);
  const [names, setNames] = useState({ firstName: '', lastName: '' });
  const [password, setPassword] = useState<NewPasswordValue>({ password: '', confirmation: '' });
  const [errors, setErrors] = useState<{ password?: string; confirmation?: string }>({});
  const [failure, setFailure] = useState<{ key: string; exists?: boolean } | null>(null);
  const [pending, setPending] = useState(false);
  const target = ROOM_REQUEST_WEB_LINKS.send(token, back);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const next = newPasswordMessages(t, password.password, password.confirmation, policy.data);
    setErrors(next);
    if (next.password || next.confirmation) {
      requestAnimationFrame(() => focusFirstInvalid(formRef.current));
      return;
    }
    setPending(true);
    setFailure(null);
    try {
      const created = await signUpForRoomRequest(token, {
        password: password.password,
        ...(names.firstName.trim() ? { firstName: names.firstName.trim() } : {}),
        ...(names.lastName.trim() ? { lastName: names.lastName.trim() } : {}),
        language: currentLanguage(),
      });
      try {
        await authStore.login({ username: created.email, password: password.password });
        await navigate(target, { replace: true });
      } catch {
        // A sign-in step is needed (e.g. two-factor for everyone): the login page runs it.
        await navigate(loginPathFor(target), { replace: true });
      }
    } catch (error) {
      const status = isApiError(error) ? error.status : 0;
      if (status === 409) setFailure({ key: 'roomRequests:signup.exists', exists: true });
      else if (status === 410) setFailure({ key: 'roomRequests:send.gone' });
      else if (status === 400) setFailure({ key: 'roomRequests:signup.invalid' });
      else setFailure({ key: 'roomRequests:signup.failed' });
      setPending(false);
    }
  }

  const gone = info.error ? (isApiError(info.error) && info.error.status === 410 ? 'roomRequests:send.gone' : 'roomRequests:send.notFound') : null;
  return (
    <Card className={styles.card}>
      <PageHeading focusOnMount>{t('roomRequests:signup.title')}</PageHeading>
      {gone ? <Alert type="error">{t(gone)}</Alert> : null}
      {!gone && !info.data ? <Spinner label={t('common:loading')} /> : null}
      {info.data ? (
        <>
          <Alert type="info">
            {t('roomRequests:signup.intro', {
              name: info.data.requesterName,
              place: info.data.folderName ? `${info.data.roomName} / ${info.data.folderName}` : info.data.roomName,
            })}
          </Alert>
          {failure ? (
            <Alert type="error" action={failure.exists ? <RouterLink to={loginPathFor(target)}>{t('roomRequests:signup.toLogin')}</RouterLink> : undefined}>
              {t(failure.key)}
            </Alert>
          ) : null}
          <form ref={formRef} className={styles.form} onSubmit={(event) => void submit(event)} noValidate>
            <Field label={t('external:signup.email')} hint={t('external:signup.emailHint')}>
              <Input type="email" name="email" value={info.data.email} readOnly />
            </Field>
            <Field label={t('external:signup.firstName')}>
              <Input name="given-name" autoComplete="given-name" value={names.firstName} onChange={(_e, data) => setNames({ ...names, firstName: data.value })} />
            </Field>
            <Field label={t('external:signup.lastName')}>
              <Input name="family-name" autoComplete="family-name" value={names.lastName} onChange={(_e, data) => setNames({ ...names, lastName: data.value })} />
            </Field>
            <NewPasswordFields value={password} onChange={setPassword} errors={errors} policy={policy.data} />
            <Button type="submit" appearance="primary" disabled={pending}>
              {t('external:signup.submit')}
            </Button>
          </form>
        </>
      ) : null}
    </Card>
  );
}
