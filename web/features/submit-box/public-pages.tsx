import { Body1, Button, Caption1, Card, Field, Input, Label, makeStyles, ProgressBar, Radio, RadioGroup, Spinner, Textarea } from '@fluentui/react-components';
import { isApiError } from '@shared/api/api-error';
import { getPublicSubmitBox, getSubmitTicket, requestSubmitTicket, startSubmission, submitSessionClient } from '@shared/api/endpoints/submit-box';
import { SUBMIT_BOX_WEB_LINKS, SUBMIT_MESSAGE_MAX_LENGTH, SUBMIT_TICKET_MAIL_MINUTES, SUBMIT_TICKET_PAGE, type SubmitStartResponse } from '@shared/contract/submit-box';
import type { SecurityLevel } from '@shared/contract/deliveries';
import { encryptsMessage, isE2eLevel, securityLevelInfo } from '@shared/contract/security-levels';
import { MemoryKeyPinStore } from '@shared/crypto/key-pinning';
import type { UnlockedKeys } from '@shared/crypto/service';
import { sendDelivery, throwawaySubmitterKeys, type E2eOptions, type SendProgress } from '@shared/transfer';
import { Alert } from '@web/components/alert';
import { PageHeading } from '@web/components/page-heading';
import { RouterLink } from '@web/components/router-link';
import { useFragmentToken } from '@web/lib/fragment-token';
import { currentLanguage } from '@web/lib/i18n';
import { apiClient } from '@web/lib/api-client';
import { cryptoApi } from '@web/lib/crypto';
import { emailMessage } from '@web/lib/validation';
import { useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import useSWR from 'swr';
import { submitBoxErrorKey } from './submit-box-errors';
import { ANALYTICS_ACTIONS } from '@web/lib/analytics/actions';
import { track } from '@web/lib/analytics/analytics';

const useStyles = makeStyles({
  card: { maxWidth: '520px', margin: '0 auto', padding: '24px', display: 'grid', gap: '16px' },
  form: { display: 'grid', gap: '16px' },
  files: { margin: 0, paddingLeft: '20px' },
  fileField: { display: 'grid', gap: '4px' },
});

function PublicCard({ children }: { children: ReactNode }) {
  const styles = useStyles();
  return <Card className={styles.card}>{children}</Card>;
}

/** A status page (SPEC §2): the box or ticket cannot be used, and why. */
function StatusPage({ error, malformedIsUnknown = false }: { error: unknown; malformedIsUnknown?: boolean }) {
  const { t } = useTranslation();
  // A malformed ticket (400) is as unknown as a wrong one: the link is broken, not the input.
  const key = malformedIsUnknown && isApiError(error) && error.status === 400 ? 'submitBox:errors.notFound' : submitBoxErrorKey(error);
  // A used ticket names its box: the way back to ask for a new link.
  const boxUuid = isApiError(error) ? error.error?.metadata.boxUuid : undefined;
  return (
    <PublicCard>
      <PageHeading focusOnMount>{t('submitBox:status.title')}</PageHeading>
      <Alert type="error" title={t(key)} />
      {typeof boxUuid === 'string' ? <RouterLink to={SUBMIT_BOX_WEB_LINKS.box(boxUuid)}>{t('submitBox:ticket.toBox')}</RouterLink> : null}
    </PublicCard>
  );
}

/** The public page (`/submit/{boxUuid}`, no account): an address → a single-use ticket link by mail. */
export function SubmitBoxPublicPage() {
  const { t } = useTranslation();
  const styles = useStyles();
  const { boxUuid = '' } = useParams();
  const box = useSWR(['submit-box/public', boxUuid], () => getPublicSubmitBox(apiClient, boxUuid), { revalidateOnFocus: false, shouldRetryOnError: false });
  const [email, setEmail] = useState('');
  const [touched, setTouched] = useState(false);
  const [pending, setPending] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const problem = touched ? emailMessage(t, email) : undefined;

  if (box.error) return <StatusPage error={box.error} />;
  if (!box.data) return <Spinner label={t('common:loading')} />;

  async function submit(event: FormEvent) {
    event.preventDefault();
    setTouched(true);
    if (emailMessage(t, email)) return;
    setPending(true);
    setFailure(null);
    try {
      await requestSubmitTicket(apiClient, boxUuid, { email: email.trim(), language: currentLanguage() });
      setSentTo(email.trim());
    } catch (err) {
      setFailure(submitBoxErrorKey(err, 'submitBox:errors.ticketCreation'));
    } finally {
      setPending(false);
    }
  }

  if (sentTo) {
    return (
      <PublicCard>
        <PageHeading focusOnMount>{t('submitBox:request.sentTitle')}</PageHeading>
        <Body1 as="p">{t('submitBox:request.sentText', { email: sentTo, minutes: SUBMIT_TICKET_MAIL_MINUTES })}</Body1>
      </PublicCard>
    );
  }
  return (
    <PublicCard>
      <PageHeading focusOnMount>{t('submitBox:request.title', { name: box.data.ownerName })}</PageHeading>
      <Body1 as="p">{t('submitBox:request.intro', { name: box.data.ownerName })}</Body1>
      {/* Partners become (sign-in-less) accounts: said before they give their address. */}
      <Caption1 as="p">{t('submitBox:request.accountNote')}</Caption1>
      {failure ? <Alert type="error" title={t(failure)} /> : null}
      <form className={styles.form} onSubmit={(event) => void submit(event)} noValidate>
        <Field label={t('submitBox:request.email')} required validationMessage={problem}>
          <Input type="email" value={email} onChange={(_e, d) => setEmail(d.value)} autoComplete="email" />
        </Field>
        <Button type="submit" appearance="primary" disabled={pending}>
          {t('submitBox:request.submit')}
        </Button>
      </form>
    </PublicCard>
  );
}

/** Levels 3/4: the submission's throwaway SecuPass (shared/transfer form-submit.ts), made in the crypto Worker. */
const throwawayKeys = (session: SubmitStartResponse): Promise<UnlockedKeys> =>
  throwawaySubmitterKeys({ crypto: cryptoApi, client: submitSessionClient(session.sessionToken), submitterUserUuid: session.submitterUserUuid, deliveryUuid: session.deliveryUuid });

/**
 * The ticket page (`/submit/ticket#ticket=…`): files and a message to the owner; the ticket works
 * once. The ticket stays in the fragment and goes to the API in the x-submit-ticket header only
 * (issue 28); a mail of the older form (`/submit/ticket/{ticket}`) still opens, moved into the fragment.
 */
export function SubmitTicketPage() {
  const { t } = useTranslation();
  const styles = useStyles();
  const { ticket: pathTicket } = useParams();
  const ticket = useFragmentToken('ticket', { legacy: pathTicket, pathname: SUBMIT_TICKET_PAGE }) ?? '';
  const state = useSWR(['submit-box/ticket', ticket], () => getSubmitTicket(apiClient, ticket), { revalidateOnFocus: false, revalidateIfStale: false, shouldRetryOnError: false });
  const [message, setMessage] = useState('');
  const [files, setFiles] = useState<File[]>([]);
  const [started, setStarted] = useState<SubmitStartResponse | null>(null);
  // The level the partner chose where the owner allows several (issue 33 §2); null: the default.
  const [chosenLevel, setChosenLevel] = useState<SecurityLevel | null>(null);
  const [progress, setProgress] = useState<SendProgress | null>(null);
  const [pending, setPending] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  // Levels 3/4: the throwaway keys of this submission, kept for a retry.
  const keys = useRef<UnlockedKeys | null>(null);

  if (done) {
    return (
      <PublicCard>
        <PageHeading focusOnMount>{t('submitBox:ticket.doneTitle')}</PageHeading>
        <Body1 as="p">{t('submitBox:ticket.doneText', { name: state.data?.ownerName ?? '' })}</Body1>
      </PublicCard>
    );
  }
  if (state.error && !started) return <StatusPage error={state.error} malformedIsUnknown />;
  if (!state.data) return <Spinner label={t('common:loading')} />;
  const { ownerName, submitterEmail, allowedLevels } = state.data;
  const securityLevel = started?.securityLevel ?? chosenLevel ?? state.data.securityLevel;
  const encrypted = isE2eLevel(securityLevel);
  const empty = files.length === 0 && message.trim() === '';

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (empty) {
      setFailure('submitBox:ticket.empty');
      return;
    }
    setPending(true);
    setFailure(null);
    try {
      // The ticket is used here, once; a failed upload continues on the same draft.
      // Level 4: the message goes only into the encrypted manifest, never to the server in clear.
      const level4 = encryptsMessage(securityLevel);
      const session = started ?? (await startSubmission(apiClient, ticket, { message: level4 ? '' : message, language: currentLanguage(), securityLevel }));
      setStarted(session);
      let e2e: E2eOptions | undefined;
      if (isE2eLevel(session.securityLevel)) {
        keys.current ??= await throwawayKeys(session);
        // No account, so no pins (DESIGN §3): the owner's key is taken as the server names it.
        e2e = { crypto: cryptoApi, keys: keys.current, pins: new MemoryKeyPinStore() };
      }
      const result = await sendDelivery({
        client: submitSessionClient(session.sessionToken),
        draft: { deliveryUuid: session.deliveryUuid },
        files: files.map((file) => ({ name: file.name, blob: file })),
        onProgress: setProgress,
        ...(e2e ? { e2e } : {}),
        ...(e2e && encryptsMessage(session.securityLevel) ? { encryptedMessage: { subject: t('submitBox:ticket.encryptedSubject', { email: submitterEmail }), body: message } } : {}),
      });
      if (result.ok && e2e) await cryptoApi.lock().catch(() => undefined);
      if (result.ok) track(ANALYTICS_ACTIONS.submitBoxSubmitted);
      if (result.ok) setDone(true);
      else setFailure('submitBox:ticket.failed');
    } catch (err) {
      setFailure(submitBoxErrorKey(err, 'submitBox:ticket.failed'));
    } finally {
      setPending(false);
    }
  }

  return (
    <PublicCard>
      <PageHeading focusOnMount>{t('submitBox:ticket.title', { name: ownerName })}</PageHeading>
      <Body1 as="p">{t('submitBox:ticket.intro', { name: ownerName, level: t(`submitBox:levels.${securityLevelInfo(securityLevel).textKey}`) })}</Body1>
      {encrypted ? (
        <Alert type="info" title={t('submitBox:ticket.encrypting', { name: ownerName, andMessage: encryptsMessage(securityLevel) ? t('submitBox:ticket.andMessage') : '' })} />
      ) : null}
      {failure ? <Alert type="error" title={t(failure)} /> : null}
      <form className={styles.form} onSubmit={(event) => void submit(event)} noValidate>
        {allowedLevels.length > 1 ? (
          <Field label={t('submitBox:ticket.level')}>
            <RadioGroup value={String(securityLevel)} disabled={started !== null} onChange={(_e, d) => setChosenLevel(allowedLevels.find((l) => String(l) === d.value) ?? null)}>
              {allowedLevels.map((level) => (
                <Radio key={level} value={String(level)} label={t(`submitBox:levels.${securityLevelInfo(level).textKey}`)} />
              ))}
            </RadioGroup>
          </Field>
        ) : null}
        <Field label={t('submitBox:ticket.message')}>
          <Textarea value={message} maxLength={SUBMIT_MESSAGE_MAX_LENGTH} disabled={started !== null} onChange={(_e, d) => setMessage(d.value)} resize="vertical" rows={5} />
        </Field>
        <div className={styles.fileField}>
          <Label htmlFor="submit-files">{t('submitBox:ticket.files')}</Label>
          <input id="submit-files" ref={fileInput} type="file" multiple disabled={pending} aria-describedby="submit-files-hint" onChange={(event) => setFiles([...(event.target.files ?? [])])} />
          <Caption1 id="submit-files-hint">{t('submitBox:ticket.filesHint')}</Caption1>
        </div>
        {files.length > 0 ? (
          <ul className={styles.files} aria-label={t('submitBox:ticket.chosen')}>
            {files.map((file) => (
              <li key={`${file.name}-${file.size}`}>{file.name}</li>
            ))}
          </ul>
        ) : null}
        {progress && pending ? <ProgressBar value={progress.percent / 100} aria-label={t('submitBox:ticket.progress', { percent: progress.percent })} /> : null}
        <Button type="submit" appearance="primary" disabled={pending}>
          {started ? t('submitBox:ticket.retry') : t('submitBox:ticket.submit')}
        </Button>
      </form>
    </PublicCard>
  );
}
