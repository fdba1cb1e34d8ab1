import { Button, Field, Input, makeStyles, Text, Textarea } from '@fluentui/react-components';
import { createGuestTicket, listGuestTickets, revokeGuestTicket } from '@shared/api/endpoints/submit-box';
import { GUEST_TICKET_MAX_DAYS, GUEST_TICKET_MESSAGE_MAX, GUEST_TICKET_SUBJECT_MAX, type GuestTicket } from '@shared/contract/submit-box-guests';
import { DataTable, type DataTableColumn } from '@web/components/data-table';
import { apiClient } from '@web/lib/api-client';
import { currentLanguage } from '@web/lib/i18n';
import { useNotify } from '@web/lib/toasts';
import { emailMessage } from '@web/lib/validation';
import { useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import useSWR from 'swr';
import { submitBoxErrorKey } from './submit-box-errors';

const useStyles = makeStyles({
  section: { marginTop: '24px', display: 'grid', gap: '12px', maxWidth: '720px' },
  row: { display: 'flex', gap: '8px', alignItems: 'end', flexWrap: 'wrap' },
});

const TICKETS_KEY = 'submit-box/guest-tickets';
const DEFAULT_DAYS = '7';

/**
 * Guest tickets (issue 33 §3): the owner makes a single-use ticket for a named person with a
 * subject, a message and an expiry (mailed to them), sees each ticket's state and revokes one.
 */
export function GuestTickets() {
  const { t, i18n } = useTranslation();
  const styles = useStyles();
  const notify = useNotify();
  const { data, error, mutate } = useSWR(TICKETS_KEY, () => listGuestTickets(apiClient), { revalidateOnFocus: false });
  const [email, setEmail] = useState('');
  const [subject, setSubject] = useState('');
  const [message, setMessage] = useState('');
  const [days, setDays] = useState(DEFAULT_DAYS);
  const [touched, setTouched] = useState(false);
  const [pending, setPending] = useState(false);
  const dateFormat = useMemo(() => new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' }), [i18n.language]);
  const validDays = Number(days);
  const daysInvalid = !Number.isInteger(validDays) || validDays < 1 || validDays > GUEST_TICKET_MAX_DAYS;
  const emailProblem = touched ? emailMessage(t, email) : undefined;

  async function create(event: FormEvent) {
    event.preventDefault();
    setTouched(true);
    if (emailMessage(t, email) || daysInvalid) return;
    setPending(true);
    try {
      await createGuestTicket(apiClient, { email: email.trim(), subject, message, validDays, language: currentLanguage() });
      notify('success', t('submitBox:guests.created', { email: email.trim() }));
      setEmail('');
      setSubject('');
      setMessage('');
      setDays(DEFAULT_DAYS);
      setTouched(false);
      await mutate();
    } catch (err) {
      notify('error', t(submitBoxErrorKey(err, 'submitBox:errors.ticketCreation')));
    } finally {
      setPending(false);
    }
  }

  async function revoke(ticket: GuestTicket) {
    try {
      await revokeGuestTicket(apiClient, ticket.ticketUuid);
      notify('success', t('submitBox:guests.revoked', { email: ticket.email }));
    } catch (err) {
      notify('error', t(submitBoxErrorKey(err, 'submitBox:guests.revokeFailed')));
    }
    await mutate();
  }

  const columns: DataTableColumn<GuestTicket>[] = [
    { id: 'email', header: t('submitBox:guests.email'), cell: (g) => g.email },
    { id: 'subject', header: t('submitBox:guests.subject'), cell: (g) => g.subject },
    { id: 'expires', header: t('submitBox:guests.expires'), cell: (g) => dateFormat.format(g.expiresAt) },
    { id: 'state', header: t('submitBox:guests.state'), cell: (g) => t(`submitBox:guests.states.${g.state}`) },
    {
      id: 'actions',
      header: t('submitBox:guests.actions'),
      cell: (g) =>
        g.state === 'unused' ? (
          <Button size="small" onClick={() => void revoke(g)} aria-label={t('submitBox:guests.revokeFor', { email: g.email })}>
            {t('submitBox:guests.revoke')}
          </Button>
        ) : null,
    },
  ];

  return (
    <section className={styles.section} aria-labelledby="submit-box-guests">
      <h2 id="submit-box-guests">{t('submitBox:guests.title')}</h2>
      <Text>{t('submitBox:guests.intro')}</Text>
      <form className={styles.section} onSubmit={(event) => void create(event)} noValidate aria-label={t('submitBox:guests.formLabel')}>
        <Field label={t('submitBox:guests.email')} required validationMessage={emailProblem}>
          <Input type="email" value={email} onChange={(_e, d) => setEmail(d.value)} autoComplete="off" />
        </Field>
        <Field label={t('submitBox:guests.subject')}>
          <Input value={subject} maxLength={GUEST_TICKET_SUBJECT_MAX} onChange={(_e, d) => setSubject(d.value)} />
        </Field>
        <Field label={t('submitBox:guests.message')}>
          <Textarea value={message} maxLength={GUEST_TICKET_MESSAGE_MAX} onChange={(_e, d) => setMessage(d.value)} rows={3} />
        </Field>
        <Field label={t('submitBox:guests.validDays')} required validationMessage={touched && daysInvalid ? t('submitBox:guests.validDaysInvalid', { max: GUEST_TICKET_MAX_DAYS }) : undefined}>
          <Input type="number" min={1} max={GUEST_TICKET_MAX_DAYS} value={days} onChange={(_e, d) => setDays(d.value)} />
        </Field>
        <div className={styles.row}>
          <Button type="submit" appearance="primary" disabled={pending}>
            {t('submitBox:guests.create')}
          </Button>
        </div>
      </form>
      <DataTable
        label={t('submitBox:guests.listLabel')}
        columns={columns}
        rows={data?.items}
        rowKey={(g) => g.ticketUuid}
        loading={!error}
        error={error ? t('submitBox:guests.loadError') : undefined}
        empty={<Text>{t('submitBox:guests.empty')}</Text>}
      />
    </section>
  );
}
