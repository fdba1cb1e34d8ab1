import { Button, Field, Input, Spinner } from '@fluentui/react-components';
import { Alert } from '@web/components/alert';
import { PageHeading } from '@web/components/page-heading';
import { RouterLink } from '@web/components/router-link';
import { isWrongPassphrase, publicKeysOf } from '@shared/secupass/keys-session';
import { useAuthState } from '@web/lib/auth';
import { cryptoApi, secuPassKeys } from '@web/lib/crypto';
import { ROUTES } from '@web/lib/routes';
import { focusFirstInvalid } from '@web/lib/validation';
import { useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { replaceOwnSecuPass, revalidateOwnSecuPass, useOwnSecuPass } from './api/own-secupass';
import { useSecuPassPolicy } from './api/policy';
import { NewPassphraseFields, newPassphraseMessages, usePassphraseEvaluation, type NewPassphraseValue } from './new-passphrase-fields';
import { evaluatePassphrase, passphraseStrength } from './passphrase-rules';
import { SecuPassCard, secuPassFormStyle } from './secupass-card';

/**
 * Passphrase change (SPEC §2 change-secupass): the Worker opens the stored blob with the current
 * passphrase and wraps the same key pairs with the new one; the new blob replaces the old (PUT).
 */
export function ChangeSecuPassPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { user } = useAuthState();
  const own = useOwnSecuPass();
  const policy = useSecuPassPolicy();
  const formRef = useRef<HTMLFormElement>(null);
  const [current, setCurrent] = useState('');
  const [value, setValue] = useState<NewPassphraseValue>({ passphrase: '', confirmation: '' });
  const [errors, setErrors] = useState<{ current?: string; passphrase?: string; confirmation?: string }>({});
  const [failure, setFailure] = useState(false);
  const [pending, setPending] = useState(false);
  const userInputs = user ? [user.email, user.username, user.firstName, user.lastName].filter(Boolean) : [];
  const evaluation = usePassphraseEvaluation(policy.data, value.passphrase, userInputs);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!policy.data || !user || !own.data?.blob) return;
    const fresh = evaluatePassphrase(policy.data, value.passphrase, passphraseStrength(value.passphrase, userInputs));
    const next = { current: current ? undefined : t('common:validation.required'), ...newPassphraseMessages(t, value, policy.data, fresh) };
    setErrors(next);
    if (next.current || next.passphrase || next.confirmation) {
      requestAnimationFrame(() => focusFirstInvalid(formRef.current));
      return;
    }
    setPending(true);
    setFailure(false);
    try {
      let changed;
      try {
        changed = await cryptoApi.changeSecuPass({ userId: user.uuid, blob: own.data.blob, currentPassphrase: current, newPassphrase: value.passphrase });
      } catch (error) {
        if (!isWrongPassphrase(error)) throw error;
        setErrors({ current: t('secupass:errors.wrongCurrentPassphrase') });
        requestAnimationFrame(() => focusFirstInvalid(formRef.current));
        return;
      }
      await replaceOwnSecuPass({ blob: changed.blob, publicKeys: publicKeysOf(changed.keys) });
      secuPassKeys.unlocked(user.uuid, changed.keys);
      setCurrent('');
      setValue({ passphrase: '', confirmation: '' });
      void revalidateOwnSecuPass();
      navigate(ROUTES.changeSecuPassSuccess, { replace: true });
    } catch {
      setFailure(true);
    } finally {
      setPending(false);
    }
  }

  let body;
  if (own.isLoading || policy.isLoading) body = <Spinner size="small" label={t('common:loading')} />;
  else if (own.error) body = <Alert type="error">{t('secupass:errors.loadError')}</Alert>;
  else if (own.data?.state !== 'active' || !own.data.blob) {
    body = (
      <>
        {own.data?.state === 'reset' ? (
          <Alert type="warning" title={t('secupass:reset.title')}>
            {t('secupass:reset.text')}
          </Alert>
        ) : (
          <Alert type="info">{t('secupass:change.noneYet')}</Alert>
        )}
        <RouterLink to={ROUTES.setSecuPass}>{t('secupass:settings.set')}</RouterLink>
      </>
    );
  } else {
    body = (
      <>
        <Alert type="warning">{t('secupass:set.noRecovery')}</Alert>
        {policy.error ? <Alert type="error">{t('secupass:errors.policyNotFetched')}</Alert> : null}
        {failure ? <Alert type="error">{t('secupass:errors.changeError')}</Alert> : null}
        <form ref={formRef} onSubmit={submit} noValidate style={secuPassFormStyle} aria-busy={pending}>
          <Field label={t('secupass:form.currentPassphrase')} required validationMessage={errors.current}>
            <Input type="password" name="current-passphrase" autoComplete="current-password" autoFocus value={current} onChange={(_e, data) => setCurrent(data.value)} />
          </Field>
          <NewPassphraseFields value={value} onChange={setValue} errors={errors} policy={policy.data} evaluation={evaluation} labelKey="secupass:form.newPassphrase" />
          <Button type="submit" appearance="primary" disabled={pending || !policy.data}>
            {pending ? t('secupass:change.submitting') : t('secupass:change.submit')}
          </Button>
        </form>
      </>
    );
  }
  return (
    <SecuPassCard>
      <PageHeading>{t('secupass:change.title')}</PageHeading>
      {body}
    </SecuPassCard>
  );
}

export function ChangeSecuPassSuccessPage() {
  const { t } = useTranslation();
  return (
    <SecuPassCard>
      <PageHeading focusOnMount>{t('secupass:change.successTitle')}</PageHeading>
      <p>{t('secupass:change.successText')}</p>
      <RouterLink to={ROUTES.settings}>{t('secupass:success.toSettings')}</RouterLink>
    </SecuPassCard>
  );
}
