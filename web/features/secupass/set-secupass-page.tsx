import { useSWRConfig } from 'swr';
import { Button, Spinner } from '@fluentui/react-components';
import { Alert } from '@web/components/alert';
import { PageHeading } from '@web/components/page-heading';
import { RouterLink } from '@web/components/router-link';
import { publicKeysOf } from '@shared/secupass/keys-session';
import { useAuthState } from '@web/lib/auth';
import { cryptoApi, secuPassKeys } from '@web/lib/crypto';
import { ROUTES, safeContinueTarget } from '@web/lib/routes';
import { focusFirstInvalid } from '@web/lib/validation';
import { useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { createOwnSecuPass, revalidateOwnSecuPass, useOwnSecuPass } from './api/own-secupass';
import { useSecuPassPolicy } from './api/policy';
import { NewPassphraseFields, newPassphraseMessages, usePassphraseEvaluation, type NewPassphraseValue } from './new-passphrase-fields';
import { evaluatePassphrase, passphraseStrength } from './passphrase-rules';
import { apiErrorClass } from './secupass-errors';
import { SecuPassCard, secuPassFormStyle } from './secupass-card';
import { useSecuPassContext } from './secupass-context';
import { ANALYTICS_ACTIONS } from '@web/lib/analytics/actions';
import { track } from '@web/lib/analytics/analytics';

type Variant = 'set' | 'create';

/**
 * First passphrase (SPEC §2 set-secupass; create-secupass is the same form reached from a delivery
 * invitation or a data room's encryption activation — the text follows `continue`, secupass-context.ts).
 * The key pairs are made and wrapped in the crypto Worker; only the wrapped blob and the public keys
 * are posted.
 */
function NewSecuPassForm({ variant }: { variant: Variant }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { mutate: mutateAll } = useSWRConfig();
  const [params] = useSearchParams();
  const { user } = useAuthState();
  const context = useSecuPassContext();
  const own = useOwnSecuPass();
  const policy = useSecuPassPolicy();
  const formRef = useRef<HTMLFormElement>(null);
  const [value, setValue] = useState<NewPassphraseValue>({ passphrase: '', confirmation: '' });
  const [errors, setErrors] = useState<{ passphrase?: string; confirmation?: string }>({});
  const [failure, setFailure] = useState<'setError' | 'alreadySet' | null>(null);
  const [pending, setPending] = useState(false);
  const userInputs = user ? [user.email, user.username, user.firstName, user.lastName].filter(Boolean) : [];
  const evaluation = usePassphraseEvaluation(policy.data, value.passphrase, userInputs);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!policy.data || !user) return;
    // Judge the current value, not the deferred one the meter shows.
    const fresh = evaluatePassphrase(policy.data, value.passphrase, passphraseStrength(value.passphrase, userInputs));
    const next = newPassphraseMessages(t, value, policy.data, fresh);
    setErrors(next);
    if (next.passphrase || next.confirmation) {
      requestAnimationFrame(() => focusFirstInvalid(formRef.current));
      return;
    }
    setPending(true);
    setFailure(null);
    try {
      const { blob, keys } = await cryptoApi.setupSecuPass({ userId: user.uuid, passphrase: value.passphrase });
      await createOwnSecuPass({ blob, publicKeys: publicKeysOf(keys) });
      track(ANALYTICS_ACTIONS.passphraseCreated);
      secuPassKeys.unlocked(user.uuid, keys);
      setValue({ passphrase: '', confirmation: '' });
      void revalidateOwnSecuPass();
      // Views seen before hold the state without a passphrase (e.g. a delivery's "create a
      // passphrase" alert): look again everywhere, also within SWR's de-duplication window.
      void mutateAll(() => true);
      const target = safeContinueTarget(params.get('continue'));
      // From a delivery's invitation (create): the sender must release it now — the approval-pending
      // screen says so and that a mail follows; it links back to the delivery (`continue`). From a
      // data room (either form): an owner must grant the room key now, the same screen in room words.
      const success = variant === 'create' || context.kind === 'room' ? ROUTES.secuPassApprovalPending : ROUTES.setSecuPassSuccess;
      navigate(target ? `${success}?continue=${encodeURIComponent(target)}` : success, { replace: true });
    } catch (error) {
      setFailure(apiErrorClass(error) === 'ConflictException' ? 'alreadySet' : 'setError');
    } finally {
      setPending(false);
    }
  }

  if (own.isLoading || policy.isLoading) return <Spinner size="small" label={t('common:loading')} />;
  if (own.data?.state === 'active') {
    return (
      <>
        <Alert type="info">{t('secupass:set.alreadySet')}</Alert>
        <RouterLink to={ROUTES.changeSecuPass}>{t('secupass:settings.change')}</RouterLink>
      </>
    );
  }
  return (
    <>
      {own.data?.state === 'reset' ? <Alert type="warning" title={t('secupass:reset.title')}>{t('secupass:reset.text')}</Alert> : null}
      <p>{t(introKey(variant, context))}</p>
      <Alert type="warning" title={t('secupass:set.noRecoveryTitle')}>
        {t('secupass:set.noRecovery')}
      </Alert>
      {policy.error ? <Alert type="error">{t('secupass:errors.policyNotFetched')}</Alert> : null}
      {failure ? <Alert type="error">{t(`secupass:errors.${failure}`)}</Alert> : null}
      <form ref={formRef} onSubmit={submit} noValidate style={secuPassFormStyle} aria-busy={pending}>
        <NewPassphraseFields value={value} onChange={setValue} errors={errors} policy={policy.data} evaluation={evaluation} autoFocus />
        <Button type="submit" appearance="primary" disabled={pending || !policy.data}>
          {pending ? t('secupass:set.submitting') : t('secupass:set.submit')}
        </Button>
      </form>
    </>
  );
}

/** The delivery text only when a delivery linked here; a room has its own; otherwise the neutral one. */
function introKey(variant: Variant, context: ReturnType<typeof useSecuPassContext>) {
  // A room page: an invited member; the secure-rooms list: someone about to create a first room.
  if (context.kind === 'room') return context.roomPage ? ('secupass:room.createIntro' as const) : ('secupass:room.createIntroFirst' as const);
  return variant === 'create' && context.kind === 'delivery' ? ('secupass:create.intro' as const) : ('secupass:set.intro' as const);
}

export function SetSecuPassPage() {
  const { t } = useTranslation();
  return (
    <SecuPassCard>
      <PageHeading>{t('secupass:set.title')}</PageHeading>
      <NewSecuPassForm variant="set" />
    </SecuPassCard>
  );
}

export function CreateSecuPassPage() {
  const { t } = useTranslation();
  return (
    <SecuPassCard>
      <PageHeading>{t('secupass:create.title')}</PageHeading>
      <NewSecuPassForm variant="create" />
    </SecuPassCard>
  );
}

function ContinueLink({ fallback, labelKey }: { fallback: string; labelKey: 'secupass:success.toSettings' | 'secupass:success.continue' }) {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const target = safeContinueTarget(params.get('continue'));
  return <RouterLink to={target ?? fallback}>{t(target ? 'secupass:success.continue' : labelKey)}</RouterLink>;
}

export function SetSecuPassSuccessPage() {
  const { t } = useTranslation();
  return (
    <SecuPassCard>
      <PageHeading focusOnMount>{t('secupass:set.successTitle')}</PageHeading>
      <p>{t('secupass:set.successText')}</p>
      <ContinueLink fallback={ROUTES.settings} labelKey="secupass:success.toSettings" />
    </SecuPassCard>
  );
}

export function CreateSecuPassSuccessPage() {
  const { t } = useTranslation();
  const context = useSecuPassContext();
  const text = { room: 'secupass:room.approvalText', delivery: 'secupass:create.successText', none: 'secupass:neutral.text' } as const;
  return (
    <SecuPassCard>
      <PageHeading focusOnMount>{t('secupass:create.successTitle')}</PageHeading>
      <p>{t(text[context.kind])}</p>
      <ContinueLink fallback={ROUTES.inbox} labelKey="secupass:success.continue" />
    </SecuPassCard>
  );
}
