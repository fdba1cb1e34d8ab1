import { Button, Card, Field, Input, makeStyles, Spinner } from '@fluentui/react-components';
import { ApiError } from '@shared/api/api-error';
import { checkShareEmail, checkShareLink, requestSignupSmsCode, signUpForDelivery } from '@shared/api/endpoints/external';
import { getPasswordPolicy } from '@shared/api/endpoints/pre-login';
import { SMS_CODE_LENGTH } from '@shared/contract/external';
import { Alert } from '@web/components/alert';
import { NewPasswordFields, type NewPasswordValue } from '@web/components/new-password-fields';
import { PageHeading } from '@web/components/page-heading';
import { RouterLink } from '@web/components/router-link';
import { apiClient } from '@web/lib/api-client';
import { authStore, useAuthState } from '@web/lib/auth';
import { currentLanguage } from '@web/lib/i18n';
import { loginPathFor } from '@web/lib/routes';
import { emailMessage, focusFirstInvalid, newPasswordMessages, requiredMessage } from '@web/lib/validation';
import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useParams, useSearchParams } from 'react-router';
import useSWR from 'swr';
import { tokenFromHash } from './delivery-format';
import { DELIVERY_KEY } from './api/delivery';
import { mutate } from 'swr';
import { clearExternalFlow, deliveryPathFor, loadExternalFlow, nextPathFor, saveExternalFlow, type ExternalFlowState } from './external-flow';

const useStyles = makeStyles({
  card: { maxWidth: '480px', margin: '0 auto', padding: '24px', display: 'grid', gap: '16px' },
  form: { display: 'grid', gap: '16px' },
  actions: { display: 'flex', gap: '8px', flexWrap: 'wrap' },
  disclaimer: { whiteSpace: 'pre-wrap', maxHeight: '40vh', overflowY: 'auto', margin: 0 },
});

function ExternalCard({ children }: { children: ReactNode }) {
  const styles = useStyles();
  return <Card className={styles.card}>{children}</Card>;
}

const reasonOf = (error: unknown) => (error instanceof ApiError ? (error.error?.metadata as { reason?: string } | undefined)?.reason : undefined);
const retryMinutes = (error: ApiError) => Math.max(1, Math.ceil(Number((error.error?.metadata as { retryAfterSeconds?: number } | undefined)?.retryAfterSeconds ?? 60) / 60));

/** A refused link (404 of the share calls): wrong or replaced, expired (with its date) or deleted — each its own message. */
function linkRefusalMessage(error: ApiError): { key: string; values?: Record<string, unknown> } {
  const reason = reasonOf(error);
  if (reason === 'deleted') return { key: 'external:errors.linkDeleted' };
  if (reason === 'expired') {
    const expiredAt = Number((error.error?.metadata as { expiredAt?: number | null } | undefined)?.expiredAt);
    return Number.isFinite(expiredAt) && expiredAt > 0
      ? { key: 'external:errors.linkExpiredOn', values: { date: new Intl.DateTimeFormat(currentLanguage(), { dateStyle: 'long' }).format(expiredAt) } }
      : { key: 'external:errors.linkExpired' };
  }
  return { key: 'external:errors.linkInvalid' };
}

/** The link check's refusal: wrong/expired/deleted, too many tries, or it could not be checked at all. */
function linkCheckMessage(error: unknown): { key: string; values?: Record<string, unknown> } {
  if (error instanceof ApiError && (error.status === 404 || error.status === 429)) return failureMessage(error);
  return { key: 'external:errors.linkCheckFailed' };
}

/** i18n key (and values) for a failed call of this path; SPEC §8 messages. */
function failureMessage(error: unknown): { key: string; values?: Record<string, unknown> } {
  if (!(error instanceof ApiError)) return { key: 'external:errors.general' };
  if (error.status === 429) return { key: 'external:errors.rateLimited', values: { count: retryMinutes(error) } };
  if (error.status === 404) return linkRefusalMessage(error);
  const reason = reasonOf(error);
  if (reason === 'userAlreadyRegistered') return { key: 'external:errors.userExists' };
  if (reason === 'phoneNumberMissing') return { key: 'external:errors.phoneMissing' };
  if (reason === 'smsNotSent') return { key: 'external:errors.smsNotSent' };
  if (reason === 'emailMismatch') return { key: 'external:errors.emailMismatch' };
  if (reason === 'smsCodeWrong') return { key: 'external:sms.wrong', values: { count: (error.error?.metadata as { attemptsLeft?: number }).attemptsLeft ?? 0 } };
  if (reason === 'smsCodeExpired') return { key: 'external:sms.expired' };
  if (reason === 'smsCodeLocked') return { key: 'external:sms.locked' };
  if (reason === 'smsCodeRequired') return { key: 'external:sms.required' };
  return { key: 'external:errors.general' };
}

/** The email prompt (SPEC §2, public, {shareUuid}): the link holder confirms the address the delivery was sent to. */
export function EmailPromptPage() {
  const { t } = useTranslation();
  const styles = useStyles();
  const navigate = useNavigate();
  const location = useLocation();
  const { locale, shareUuid } = useParams();
  const { user } = useAuthState();
  const [token] = useState(() => tokenFromHash(location.hash));
  const formRef = useRef<HTMLFormElement>(null);
  const [email, setEmail] = useState('');
  const [fieldError, setFieldError] = useState<string | undefined>();
  const [failure, setFailure] = useState<{ key: string; values?: Record<string, unknown> } | null>(null);
  const [pending, setPending] = useState(false);
  // Say at once what is wrong with the link (wrong, expired, deleted) before asking for anything.
  const link = useSWR(token && shareUuid ? ['external/link-check', shareUuid, token] : null, () => checkShareLink(apiClient, shareUuid!, { token: token! }), {
    revalidateOnFocus: false,
    shouldRetryOnError: false,
  });

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const invalid = emailMessage(t, email);
    setFieldError(invalid);
    if (invalid) {
      requestAnimationFrame(() => focusFirstInvalid(formRef.current));
      return;
    }
    if (!token || !shareUuid) return;
    setPending(true);
    setFailure(null);
    try {
      const answer = await checkShareEmail(apiClient, shareUuid, { email: email.trim(), token, language: currentLanguage() });
      const state: ExternalFlowState = { ...answer, token, email: email.trim(), disclaimerAccepted: false };
      saveExternalFlow(state);
      // A refusal cached before the address was confirmed (the proof cookie is set now) must not come back.
      await mutate((key) => Array.isArray(key) && key[0] === DELIVERY_KEY && key[1] === answer.deliveryUuid, undefined, { revalidate: false });
      navigate(nextPathFor(state, locale, user?.email ?? null));
    } catch (error) {
      const message = failureMessage(error);
      if (message.key === 'external:errors.emailMismatch') {
        setFieldError(t(message.key));
        requestAnimationFrame(() => focusFirstInvalid(formRef.current));
      } else setFailure(message);
    } finally {
      setPending(false);
    }
  }

  return (
    <ExternalCard>
      <PageHeading focusOnMount>{t(!token || !shareUuid || link.error ? 'external:errors.linkRefusedTitle' : 'external:emailPrompt.title')}</PageHeading>
      {!token || !shareUuid ? (
        <Alert type="error">{t('external:errors.linkInvalid')}</Alert>
      ) : link.error ? (
        <Alert type="error">
          {(() => {
            const message = linkCheckMessage(link.error);
            return t(message.key, message.values);
          })()}
        </Alert>
      ) : !link.data ? (
        <Spinner label={t('common:loading')} />
      ) : (
        <>
          <p>{t('external:emailPrompt.intro')}</p>
          {failure ? <Alert type="error">{t(failure.key, failure.values)}</Alert> : null}
          <form ref={formRef} className={styles.form} onSubmit={submit} noValidate>
            <Field label={t('external:emailPrompt.email')} required validationMessage={fieldError}>
              <Input type="email" name="email" autoComplete="email" value={email} onChange={(_e, data) => setEmail(data.value)} />
            </Field>
            <Button type="submit" appearance="primary" disabled={pending}>
              {t('external:emailPrompt.submit')}
            </Button>
          </form>
        </>
      )}
    </ExternalCard>
  );
}

/** Asks to open the mailed link again when the flow's state is gone (another tab, a closed one). */
function StartAgain() {
  const { t } = useTranslation();
  return <Alert type="warning">{t('external:errors.startAgain')}</Alert>;
}

/** The download disclaimer (SPEC §2, public, {deliveryUuid}): accept → continue, decline → leave. */
export function DownloadDisclaimerPage() {
  const { t } = useTranslation();
  const styles = useStyles();
  const navigate = useNavigate();
  const { locale, deliveryUuid } = useParams();
  const { user } = useAuthState();
  const [state] = useState(() => loadExternalFlow(deliveryUuid));
  const [declined, setDeclined] = useState(false);

  if (declined) {
    return (
      <ExternalCard>
        <PageHeading focusOnMount>{t('external:disclaimer.declinedTitle')}</PageHeading>
        <Alert type="info">{t('external:disclaimer.declined')}</Alert>
      </ExternalCard>
    );
  }
  if (!state?.disclaimer) {
    return (
      <ExternalCard>
        <PageHeading focusOnMount>{t('external:disclaimer.title')}</PageHeading>
        <StartAgain />
      </ExternalCard>
    );
  }
  const accept = () => {
    const accepted = { ...state, disclaimerAccepted: true };
    saveExternalFlow(accepted);
    navigate(nextPathFor(accepted, locale, user?.email ?? null), { replace: true });
  };
  const decline = () => {
    clearExternalFlow(state.deliveryUuid);
    setDeclined(true);
  };
  return (
    <ExternalCard>
      <PageHeading focusOnMount>{t('external:disclaimer.title')}</PageHeading>
      <p>{t('external:disclaimer.intro')}</p>
      <section aria-label={t('external:disclaimer.textLabel')} tabIndex={0}>
        <p className={styles.disclaimer}>{state.disclaimer.text}</p>
      </section>
      <div className={styles.actions}>
        <Button appearance="primary" onClick={accept}>
          {t('external:disclaimer.accept')}
        </Button>
        <Button onClick={decline}>{t('external:disclaimer.decline')}</Button>
      </div>
    </ExternalCard>
  );
}

const usePasswordPolicy = () => useSWR('external/password-policy', () => getPasswordPolicy(apiClient), { revalidateOnFocus: false });

/** Seconds left until `until` (epoch ms), ticking once a second while positive. */
function useCountdown(until: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (until <= now) return undefined;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [until, now]);
  return Math.max(0, Math.ceil((until - now) / 1000));
}

/**
 * Delivery signup (SPEC §2 auth area: delivery-signup and delivery-signup-dar). Creates the
 * account bound to the delivery's address, with the password policy; the -dar variant asks for the
 * SMS code on a second screen (with resend after a cool-down). Then signs in and goes on to the
 * delivery.
 */
export function DeliverySignupPage() {
  const { t } = useTranslation();
  const styles = useStyles();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [state] = useState(() => loadExternalFlow(params.get('deliveryUuid') ?? undefined));
  const policy = usePasswordPolicy();
  const formRef = useRef<HTMLFormElement>(null);
  const [names, setNames] = useState({ firstName: '', lastName: '' });
  const [password, setPassword] = useState<NewPasswordValue>({ password: '', confirmation: '' });
  const [errors, setErrors] = useState<{ password?: string; confirmation?: string }>({});
  const [step, setStep] = useState<'form' | 'code'>('form');
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | undefined>();
  const [phoneHint, setPhoneHint] = useState<string | null>(state?.sms.phoneHint ?? null);
  const [resendAt, setResendAt] = useState(0);
  const [failure, setFailure] = useState<{ key: string; values?: Record<string, unknown> } | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const resendIn = useCountdown(resendAt);

  if (!state || state.next !== 'signup') {
    return (
      <ExternalCard>
        <PageHeading focusOnMount>{t('external:signup.title')}</PageHeading>
        <StartAgain />
      </ExternalCard>
    );
  }
  const flow = state;
  const smsBlocked = flow.sms.required && !flow.sms.phoneHint;

  async function sendCode(): Promise<boolean> {
    try {
      const sent = await requestSignupSmsCode(apiClient, flow.shareUuid, { email: flow.email, token: flow.token });
      setPhoneHint(sent.phoneHint);
      setResendAt(Date.now() + sent.resendAfterSeconds * 1000);
      return true;
    } catch (error) {
      if (error instanceof ApiError && error.status === 429) {
        // A code went out a moment ago: it is still valid, wait before another.
        const seconds = Number((error.error?.metadata as { retryAfterSeconds?: number } | undefined)?.retryAfterSeconds ?? 60);
        setResendAt(Date.now() + seconds * 1000);
        return true;
      }
      setFailure(failureMessage(error));
      return false;
    }
  }

  async function createAccount(smsCode?: string) {
    setPending(true);
    setFailure(null);
    try {
      await signUpForDelivery(apiClient, flow.shareUuid, {
        email: flow.email,
        token: flow.token,
        password: password.password,
        firstName: names.firstName.trim() || undefined,
        lastName: names.lastName.trim() || undefined,
        language: currentLanguage(),
        smsCode,
      });
    } catch (error) {
      const message = failureMessage(error);
      if (step === 'code' && message.key.startsWith('external:sms.')) {
        setCodeError(t(message.key, message.values));
        requestAnimationFrame(() => focusFirstInvalid(formRef.current));
      } else setFailure(message);
      setPending(false);
      return;
    }
    clearExternalFlow(flow.deliveryUuid);
    const target = deliveryPathFor(flow, flow.language);
    try {
      await authStore.login({ username: flow.email, password: password.password });
      navigate(target, { replace: true });
    } catch {
      // A sign-in step is needed (e.g. two-factor required for everyone): the login page runs it.
      navigate(loginPathFor(target), { replace: true });
    }
  }

  async function submitForm(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const next = newPasswordMessages(t, password.password, password.confirmation, policy.data);
    setErrors(next);
    if (next.password || next.confirmation) {
      requestAnimationFrame(() => focusFirstInvalid(formRef.current));
      return;
    }
    if (!flow.sms.required) {
      await createAccount();
      return;
    }
    setPending(true);
    setFailure(null);
    if (await sendCode()) setStep('code');
    setPending(false);
  }

  async function submitCode(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const compact = code.replace(/\s+/g, '');
    const invalid = requiredMessage(t, compact) ?? (new RegExp(`^\\d{${SMS_CODE_LENGTH}}$`).test(compact) ? undefined : t('external:sms.digits', { count: SMS_CODE_LENGTH }));
    setCodeError(invalid);
    if (invalid) {
      requestAnimationFrame(() => focusFirstInvalid(formRef.current));
      return;
    }
    await createAccount(compact);
  }

  async function resend() {
    setNotice(null);
    setFailure(null);
    setCodeError(undefined);
    if (await sendCode()) setNotice(t('external:sms.resent'));
  }

  if (step === 'code') {
    return (
      <ExternalCard>
        <PageHeading focusOnMount>{t('external:sms.title')}</PageHeading>
        <p>{t('external:sms.intro', { count: SMS_CODE_LENGTH, phone: phoneHint ?? '' })}</p>
        {failure ? <Alert type="error">{t(failure.key, failure.values)}</Alert> : null}
        {notice ? <Alert type="success">{notice}</Alert> : null}
        <form ref={formRef} className={styles.form} onSubmit={submitCode} noValidate>
          <Field label={t('external:sms.code')} required validationMessage={codeError}>
            <Input name="sms-code" inputMode="numeric" autoComplete="one-time-code" value={code} onChange={(_e, data) => setCode(data.value)} />
          </Field>
          <div className={styles.actions}>
            <Button type="submit" appearance="primary" disabled={pending}>
              {t('external:sms.submit')}
            </Button>
            <Button onClick={() => void resend()} disabled={pending || resendIn > 0}>
              {resendIn > 0 ? t('external:sms.resendIn', { count: resendIn }) : t('external:sms.resend')}
            </Button>
          </div>
        </form>
        {pending ? <Spinner size="small" label={t('common:loading')} /> : null}
      </ExternalCard>
    );
  }

  return (
    <ExternalCard>
      <PageHeading focusOnMount>{t('external:signup.title')}</PageHeading>
      <p>{t('external:signup.intro')}</p>
      {failure ? (
        <Alert
          type="error"
          action={failure.key === 'external:errors.userExists' ? <RouterLink to={loginPathFor(deliveryPathFor(flow, flow.language))}>{t('external:signup.toLogin')}</RouterLink> : undefined}
        >
          {t(failure.key, failure.values)}
        </Alert>
      ) : null}
      {smsBlocked ? (
        <Alert type="error">{t('external:errors.phoneMissing')}</Alert>
      ) : (
        <form ref={formRef} className={styles.form} onSubmit={submitForm} noValidate>
          <Field label={t('external:signup.email')} hint={t('external:signup.emailHint')}>
            <Input type="email" name="email" value={flow.email} readOnly />
          </Field>
          <Field label={t('external:signup.firstName')}>
            <Input name="given-name" autoComplete="given-name" value={names.firstName} onChange={(_e, data) => setNames({ ...names, firstName: data.value })} />
          </Field>
          <Field label={t('external:signup.lastName')}>
            <Input name="family-name" autoComplete="family-name" value={names.lastName} onChange={(_e, data) => setNames({ ...names, lastName: data.value })} />
          </Field>
          <NewPasswordFields value={password} onChange={setPassword} errors={errors} policy={policy.data} />
          {flow.sms.required ? <p>{t('external:signup.smsNotice', { phone: flow.sms.phoneHint ?? '' })}</p> : null}
          <Button type="submit" appearance="primary" disabled={pending}>
            {flow.sms.required ? t('external:signup.sendCode') : t('external:signup.submit')}
          </Button>
        </form>
      )}
    </ExternalCard>
  );
}
