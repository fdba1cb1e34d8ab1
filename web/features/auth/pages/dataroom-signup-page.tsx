import { Button, Field, Input, Spinner } from '@fluentui/react-components';
import { isApiError } from '@shared/api/api-error';
import { Alert } from '@web/components/alert';
import { NewPasswordFields, type NewPasswordValue } from '@web/components/new-password-fields';
import { PageHeading } from '@web/components/page-heading';
import { RouterLink } from '@web/components/router-link';
import { authStore } from '@web/lib/auth';
import { currentLanguage } from '@web/lib/i18n';
import { loginPathFor, ROUTES } from '@web/lib/routes';
import { focusFirstInvalid, newPasswordMessages } from '@web/lib/validation';
import { useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useFragmentToken } from '@web/lib/fragment-token';
import { useNavigate, useSearchParams } from 'react-router';
import { completeRoomInvitation, useRoomInvitation } from '../api/dataroom-signup';
import { usePasswordPolicy } from '../api/password-policy';
import { AuthCard, authFormStyle } from '../auth-layout';
import { safeBackPath } from '@shared/contract/room-requests';

type Failure = 'gone' | 'invalid' | 'userExists' | 'rateLimited' | 'policy' | 'general';

function failureOf(error: unknown): Failure {
  if (!isApiError(error)) return 'general';
  if (error.status === 410) return 'gone';
  if (error.status === 404) return 'invalid';
  if (error.status === 409) return 'userExists';
  if (error.status === 429) return 'rateLimited';
  return error.status === 400 ? 'policy' : 'general';
}

/**
 * Dataroom registration completion (SPEC §2 auth area: dataroom-signup and dataroom-signup-dar):
 * the mailed link's invitation — room (its name unless end-to-end encrypted), address, role — and
 * the new account's name and password under the password policy. Then signs in and opens the
 * room, or the `back` path of the -dar variant. An expired or used link shows the warning of
 * SPEC §8 "invitation expired or used".
 */
export function DataroomSignupPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  // The mailed link's token, in the fragment (a link mailed before with `?token=` is moved there); the API gets it in bodies only.
  const token = useFragmentToken('token');
  const back = safeBackPath(params.get('back'));
  const invitation = useRoomInvitation(token);
  const policy = usePasswordPolicy();
  const formRef = useRef<HTMLFormElement>(null);
  const [names, setNames] = useState({ firstName: '', lastName: '' });
  const [password, setPassword] = useState<NewPasswordValue>({ password: '', confirmation: '' });
  const [errors, setErrors] = useState<{ password?: string; confirmation?: string }>({});
  const [failure, setFailure] = useState<Failure | null>(null);
  const [pending, setPending] = useState(false);

  const heading = <PageHeading focusOnMount>{t('auth:dataroomSignup.title')}</PageHeading>;
  const loadFailure: Failure | null = !token ? 'invalid' : invitation.error ? failureOf(invitation.error) : null;
  const shownFailure = failure === 'gone' || failure === 'invalid' ? failure : loadFailure;

  if (shownFailure === 'gone' || shownFailure === 'invalid') {
    return (
      <AuthCard>
        {heading}
        <Alert type="warning">{t(`auth:dataroomSignup.errors.${shownFailure}`)}</Alert>
        <p>
          <RouterLink to={ROUTES.login}>{t('auth:common.toLogin')}</RouterLink>
        </p>
      </AuthCard>
    );
  }
  if (loadFailure) {
    return (
      <AuthCard>
        {heading}
        <Alert type="error">{t(`auth:dataroomSignup.errors.${loadFailure}`)}</Alert>
      </AuthCard>
    );
  }
  if (!invitation.data) {
    return (
      <AuthCard>
        {heading}
        <Spinner size="small" label={t('common:loading')} />
      </AuthCard>
    );
  }
  const details = invitation.data;

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
    let target: string;
    try {
      const done = await completeRoomInvitation({
        token: token!,
        password: password.password,
        language: currentLanguage(),
        ...(names.firstName.trim() ? { firstName: names.firstName.trim() } : {}),
        ...(names.lastName.trim() ? { lastName: names.lastName.trim() } : {}),
      });
      // An end-to-end encrypted room opens on its own page (names decrypted in the browser).
      target = back ?? (details.encrypted ? ROUTES.secureRoom : ROUTES.room)(done.roomUuid, done.folderUuid ?? undefined);
    } catch (error) {
      setFailure(failureOf(error));
      setPending(false);
      return;
    }
    try {
      await authStore.login({ username: details.email, password: password.password });
      navigate(target, { replace: true });
    } catch {
      // A sign-in step is needed (e.g. two-factor required for everyone): the login page runs it.
      navigate(loginPathFor(target), { replace: true });
    }
  }

  return (
    <AuthCard>
      {heading}
      <p>
        {details.roomName === null
          ? t('auth:dataroomSignup.introEncrypted', { inviter: details.inviterName, role: t(`auth:dataroomSignup.roles.${details.role}`) })
          : t('auth:dataroomSignup.intro', { inviter: details.inviterName, room: details.roomName, role: t(`auth:dataroomSignup.roles.${details.role}`) })}
      </p>
      {failure ? (
        <Alert type="error" action={failure === 'userExists' ? <RouterLink to={ROUTES.login}>{t('auth:common.toLogin')}</RouterLink> : undefined}>
          {t(`auth:dataroomSignup.errors.${failure}`)}
        </Alert>
      ) : null}
      <form ref={formRef} onSubmit={submit} noValidate style={authFormStyle}>
        <Field label={t('auth:dataroomSignup.room')}>
          <Input name="room" value={details.roomName ?? t('auth:dataroomSignup.encryptedRoom')} readOnly />
        </Field>
        <Field label={t('auth:dataroomSignup.email')} hint={t('auth:dataroomSignup.emailHint')}>
          <Input type="email" name="email" value={details.email} readOnly />
        </Field>
        <Field label={t('auth:signup.firstName')}>
          <Input name="given-name" autoComplete="given-name" maxLength={100} value={names.firstName} onChange={(_e, data) => setNames({ ...names, firstName: data.value })} />
        </Field>
        <Field label={t('auth:signup.lastName')}>
          <Input name="family-name" autoComplete="family-name" maxLength={100} value={names.lastName} onChange={(_e, data) => setNames({ ...names, lastName: data.value })} />
        </Field>
        <NewPasswordFields value={password} onChange={setPassword} errors={errors} policy={policy.data} />
        <Button type="submit" appearance="primary" disabled={pending}>
          {pending ? t('auth:dataroomSignup.submitting') : t('auth:dataroomSignup.submit')}
        </Button>
      </form>
    </AuthCard>
  );
}
