import { Body1, Button, Checkbox, Field, Input, makeStyles, Spinner, Switch } from '@fluentui/react-components';
import { getSubmitBox, sendSubmitTicket, updateSubmitBox } from '@shared/api/endpoints/submit-box';
import type { SecurityLevel } from '@shared/contract/deliveries';
import { SECURITY_LEVEL_ORDER, SECURITY_LEVEL_TABLE } from '@shared/contract/security-levels';
import type { SubmitBox } from '@shared/contract/submit-box';
import { Alert } from '@web/components/alert';
import { PageHeading } from '@web/components/page-heading';
import { apiClient } from '@web/lib/api-client';
import { currentLanguage } from '@web/lib/i18n';
import { useNotify } from '@web/lib/toasts';
import { emailMessage } from '@web/lib/validation';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import useSWR from 'swr';
import { GuestTickets } from './guest-tickets';
import { submitBoxErrorKey } from './submit-box-errors';

const useStyles = makeStyles({
  section: { marginTop: '24px', display: 'grid', gap: '12px', maxWidth: '560px' },
  row: { display: 'flex', gap: '8px', alignItems: 'end', flexWrap: 'wrap' },
  fieldset: { border: 'none', padding: 0, margin: 0, display: 'grid', gap: '4px' },
});

const BOX_KEY = 'submit-box/own';

/** The owner's submit box (ROLE_SUBMITBOX_OWNER): activate, levels, validity, notification, the link, tickets. */
export function SubmitBoxPage() {
  const { t } = useTranslation();
  const { data, error, mutate } = useSWR(BOX_KEY, () => getSubmitBox(apiClient), { revalidateOnFocus: false });
  return (
    <>
      <PageHeading focusOnMount>{t('submitBox:owner.title')}</PageHeading>
      <Body1 as="p">{t('submitBox:owner.intro')}</Body1>
      {error ? <Alert type="error" title={t('submitBox:errors.loadFailed')} /> : null}
      {!data && !error ? <Spinner label={t('common:loading')} /> : null}
      {data ? <BoxSettings box={data} onSaved={(box) => void mutate(box, { revalidate: false })} /> : null}
      {data?.active && !data.globallyDisabled ? <SendTicket /> : null}
      {data?.active && !data.globallyDisabled ? <GuestTickets /> : null}
    </>
  );
}

function BoxSettings({ box, onSaved }: { box: SubmitBox; onSaved: (box: SubmitBox) => void }) {
  const { t } = useTranslation();
  const styles = useStyles();
  const notify = useNotify();
  const [active, setActive] = useState(box.active);
  const [levels, setLevels] = useState<SecurityLevel[]>(box.allowedLevels);
  const [validity, setValidity] = useState(box.validityDays === null ? '' : String(box.validityDays));
  const [notifyOnSubmit, setNotifyOnSubmit] = useState(box.notifyOnSubmit);
  const [pending, setPending] = useState(false);
  useEffect(() => {
    setActive(box.active);
    setLevels(box.allowedLevels);
    setNotifyOnSubmit(box.notifyOnSubmit);
  }, [box]);
  const validityDays = validity.trim() === '' ? null : Number(validity);
  const validityInvalid = validityDays !== null && (!Number.isInteger(validityDays) || validityDays < 1 || validityDays > 365);
  const levelsInvalid = active && levels.length === 0;
  const onlyEncrypted = levels.length > 0 && levels.every((l) => SECURITY_LEVEL_TABLE.some((i) => i.wire === l && i.e2e));

  async function save(event: FormEvent) {
    event.preventDefault();
    if (validityInvalid || levelsInvalid) return;
    setPending(true);
    try {
      onSaved(await updateSubmitBox(apiClient, { active, allowedLevels: levels, validityDays, notifyOnSubmit }));
      notify('success', t('submitBox:owner.saved'));
    } catch (err) {
      notify('error', t(submitBoxErrorKey(err, 'submitBox:errors.saveFailed')));
    } finally {
      setPending(false);
    }
  }

  async function copyLink() {
    try {
      await navigator.clipboard.writeText(box.link);
      notify('success', t('submitBox:owner.linkCopied'));
    } catch {
      notify('error', t('submitBox:owner.copyFailed'));
    }
  }

  return (
    <>
      {box.globallyDisabled ? <Alert type="warning" title={t('submitBox:owner.globallyDisabled')} /> : null}
      <form className={styles.section} onSubmit={(event) => void save(event)} noValidate>
        <Switch checked={active} onChange={(_e, d) => setActive(d.checked)} label={active ? t('submitBox:owner.active') : t('submitBox:owner.inactive')} />
        <fieldset className={styles.fieldset}>
          <legend>{t('submitBox:owner.levels')}</legend>
          {SECURITY_LEVEL_TABLE.map(({ wire: level, textKey, e2e }) => (
            <Checkbox
              key={level}
              id={`submit-box-${textKey}`}
              label={t(`submitBox:levels.${textKey}`)}
              checked={levels.includes(level)}
              // Levels 3/4 encrypt to the owner's keys: only with an active SecuPass (kept when already chosen, to untick).
              disabled={e2e && !box.ownerHasPassphrase && !levels.includes(level)}
              onChange={(_e, d) => setLevels(d.checked ? SECURITY_LEVEL_ORDER.filter((l) => l === level || levels.includes(l)) : levels.filter((l) => l !== level))}
            />
          ))}
        </fieldset>
        {levelsInvalid ? <Alert type="error" title={t('submitBox:owner.levelsRequired')} /> : null}
        {!box.ownerHasPassphrase ? <Alert type={onlyEncrypted ? 'warning' : 'info'} title={t('submitBox:owner.passphraseNeeded')} /> : null}
        <Field label={t('submitBox:owner.validity')} hint={t('submitBox:owner.validityHint')} validationMessage={validityInvalid ? t('submitBox:owner.validityInvalid') : undefined}>
          <Input type="number" min={1} max={365} value={validity} onChange={(_e, d) => setValidity(d.value)} />
        </Field>
        <Field hint={t('submitBox:owner.notifyHint')}>
          <Switch checked={notifyOnSubmit} onChange={(_e, d) => setNotifyOnSubmit(d.checked)} label={t('submitBox:owner.notify')} />
        </Field>
        <div className={styles.row}>
          <Button type="submit" appearance="primary" disabled={pending}>
            {t('submitBox:owner.save')}
          </Button>
        </div>
      </form>
      <section className={styles.section} aria-labelledby="submit-box-link">
        <h2 id="submit-box-link">{t('submitBox:owner.shareTitle')}</h2>
        <div className={styles.row}>
          <Field label={t('submitBox:owner.link')} style={{ flex: 1 }}>
            <Input readOnly value={box.link} />
          </Field>
          <Button onClick={() => void copyLink()}>{t('submitBox:owner.copy')}</Button>
        </div>
        {!box.active ? <Body1 as="p">{t('submitBox:owner.linkInactive')}</Body1> : null}
      </section>
    </>
  );
}

function SendTicket() {
  const { t } = useTranslation();
  const styles = useStyles();
  const notify = useNotify();
  const [email, setEmail] = useState('');
  const [touched, setTouched] = useState(false);
  const [pending, setPending] = useState(false);
  const problem = touched ? emailMessage(t, email) : undefined;

  async function send(event: FormEvent) {
    event.preventDefault();
    setTouched(true);
    if (emailMessage(t, email)) return;
    setPending(true);
    try {
      await sendSubmitTicket(apiClient, { email: email.trim(), language: currentLanguage() });
      notify('success', t('submitBox:owner.ticketSent', { email: email.trim() }));
      setEmail('');
      setTouched(false);
    } catch (err) {
      notify('error', t(submitBoxErrorKey(err, 'submitBox:errors.ticketCreation')));
    } finally {
      setPending(false);
    }
  }

  return (
    <form className={styles.section} onSubmit={(event) => void send(event)} noValidate aria-labelledby="submit-box-ticket">
      <h2 id="submit-box-ticket">{t('submitBox:owner.ticketTitle')}</h2>
      <div className={styles.row}>
        <Field label={t('submitBox:owner.ticketEmail')} validationMessage={problem} style={{ flex: 1 }}>
          <Input type="email" value={email} onChange={(_e, d) => setEmail(d.value)} autoComplete="email" />
        </Field>
        <Button type="submit" disabled={pending}>
          {t('submitBox:owner.ticketSend')}
        </Button>
      </div>
    </form>
  );
}
