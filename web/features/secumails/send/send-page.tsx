import { Button, Field, Input, makeStyles, mergeClasses, Radio, RadioGroup, Spinner, Textarea, tokens } from '@fluentui/react-components';
import { ArrowClockwiseRegular, DismissRegular, PauseRegular, PhoneRegular, PlayRegular, SendRegular } from '@fluentui/react-icons';
import type { DeliverySendConfig } from '@shared/contract/config';
import { MAX_BODY_LENGTH, MAX_SUBJECT_LENGTH, type DeliveryDetail, type RecipientStatus, type SecurityLevel } from '@shared/contract/deliveries';
import { isE2eLevel, securityLevelInfo } from '@shared/contract/security-levels';
import { type SendProblem } from '@shared/deliveries';
import type { DeliverRequest } from '@shared/send/send-controller';
import { useSendController } from '@shared/send/use-send-controller';
import { Alert } from '@web/components/alert';
import { useChangedKeyConfirm } from '@web/components/changed-key-dialog';
import { PageHeading } from '@web/components/page-heading';
import { StorageWarning } from '@web/components/storage-warning';
import { CaptionedProgress } from '@web/components/transfer-centre';
import { currentLanguage } from '@web/lib/i18n';
import { ROUTES } from '@web/lib/routes';
import { canPause, isActive, transferStore, useTransfer, type TransferMessage } from '@web/lib/transfer-store';
import { useUnlockedKeys } from '@web/lib/unlock-request';
import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { recipientStatusNow, useRecipientStatus } from '../api/recipient-status';
import { PhoneNumbersDialog } from '../phone-numbers-dialog';
import { useSendConfig } from '../api/send-config';
import { formatSize } from '../delivery-format';
import { ScanOutcome } from '../scan-outcome';
import { AttachmentsField } from './attachments-field';
import { RecipientChips } from './recipient-chips';
import { sendDraftStore, type SendDraft } from './send-draft';
import { blockedFileRows, problemsText } from './send-messages';
import { startSend } from './start-send';

const useStyles = makeStyles({
  form: { display: 'flex', flexDirection: 'column', gap: '16px', maxWidth: '760px' },
  levelHint: { color: tokens.colorNeutralForeground2, display: 'block', fontSize: tokens.fontSizeBase200 },
  // Fluent greys an unchecked radio's label (colorNeutralForeground3), so enabled levels looked
  // disabled: an enabled level reads in the normal text colour, checked or not; a disabled one in
  // the disabled colour, its hint too.
  // Fluent's own rule is `input:enabled:not(:checked) ~ label`; the same selector under the radio's root outranks it.
  levelRadio: { '& .fui-Radio__input:enabled:not(:checked) ~ .fui-Radio__label': { color: tokens.colorNeutralForeground1 } },
  levelHintDisabled: { color: tokens.colorNeutralForegroundDisabled },
  actions: { display: 'flex', gap: '8px', flexWrap: 'wrap' },
  progress: { display: 'flex', flexDirection: 'column', gap: '8px', maxWidth: '760px', marginTop: '16px' },
  alertText: { display: 'block', marginBottom: '8px' },
  fileList: { listStyle: 'none', margin: 0, padding: 0, display: 'flex', flexDirection: 'column', gap: '6px' },
});

/** What the success page shows (router state: it needs no request). */
export interface SendSuccessState {
  subject: string;
  recipients: string[];
  /** Set when the server scans the attachments before the recipients are mailed (levels 1/2 with clamd). */
  scanning?: { deliveryUuid: string };
}


/** Send delivery (SPEC §2): the form, its §5 checks at each field, the upload with progress, §8 messages. */
export function SendPage() {
  const { t } = useTranslation();
  const { data: config, error } = useSendConfig();
  const [params] = useSearchParams();
  const hasReplyTarget = params.getAll('to').some(Boolean);
  return (
    <>
      <PageHeading>{t('send:title')}</PageHeading>
      {error ? <Alert type="error">{t('send:configError')}</Alert> : null}
      <StorageWarning />
      {!config && !error ? <Spinner label={t('common:loading')} /> : null}
      {config ? <SenderNotes config={config} /> : null}
      {config && !(config.sender?.replyOnly && !hasReplyTarget) ? <SendForm config={config} /> : null}
    </>
  );
}

/** What the server will hold this sender to (server/deliveries/senders.ts), said before the form. */
function SenderNotes({ config }: { config: DeliverySendConfig }) {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const sender = config.sender;
  if (!sender) return null;
  return (
    <>
      {sender.replyOnly ? <Alert type="info">{t(params.getAll('to').some(Boolean) ? 'send:sender.replyOnly' : 'send:sender.replyOnlyNone')}</Alert> : null}
      {!sender.licensed ? <Alert type="info">{t('send:sender.unlicensed')}</Alert> : null}
    </>
  );
}

function SendForm({ config }: { config: DeliverySendConfig }) {
  const { t, i18n } = useTranslation();
  const styles = useStyles();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  // An unsent draft kept while the user was elsewhere (send-draft.ts); a Reply link starts fresh.
  const [restored, setRestored] = useState(() => (params.getAll('to').some(Boolean) ? null : sendDraftStore.peek()));
  // The form's fields, §5 checks, levels and send steps: the shared send controller (shared/send), as in the add-in.
  const [form, controller] = useSendController<File>({
    config,
    language: currentLanguage,
    initial: {
      // Reply from the inbox detail: ?to=…&subject=… (delivery-format.ts replyLink).
      recipients: restored?.recipients ?? params.getAll('to').filter(Boolean),
      subject: restored?.subject ?? params.get('subject') ?? '',
      body: restored?.body ?? '',
      validityText: restored?.validityText ?? '',
      files: restored?.files ?? [],
      ...(restored?.level !== undefined ? { level: restored.level } : {}),
    },
  });
  const { recipients, subject, body, validityText, level, files } = form.fields;
  const { submitted, problems, fileProblems, allowedLevels: allowed, validity } = form;
  const [transferId, setTransferId] = useState<string>();
  // Levels 3/4: the app's UnlockProvider asks for the passphrase; a changed recipient key needs confirming.
  const unlockedKeys = useUnlockedKeys('send');
  const { confirmChangedKey, dialog: changedKeyDialog } = useChangedKeyConfirm(t('send:changedKeyConfirm'));
  const transfer = useTransfer(transferId);
  const recipientStatus = useRecipientStatus(recipients, { withKeys: level !== undefined && isE2eLevel(level) });
  // SMS signup (kuvert.delivery.signup.requireSms): unregistered recipients need a phone number.
  const [phones, setPhones] = useState<Record<string, string>>(() => restored?.phones ?? {});
  const [phoneDialog, setPhoneDialog] = useState<'closed' | 'edit' | 'beforeSend'>('closed');
  const unregistered = (statuses: ReadonlyMap<string, RecipientStatus>) =>
    config.signupRequiresSms ? recipients.filter((r) => statuses.get(r.toLowerCase())?.registered === false) : [];
  const needPhones = unregistered(recipientStatus);
  // The recipients the dialog asks about before a send (looked up at the click, see recipientStatusNow).
  const [askPhonesFor, setAskPhonesFor] = useState<string[]>([]);
  const checkingPhones = useRef(false);
  const running = transfer !== undefined && isActive(transfer);

  const text = (message: TransferMessage) => t(message.key, message.values);
  const messageAt = (field: SendProblem['field']): string | undefined => {
    const list = field === 'files' && !submitted ? fileProblems : submitted ? problems : [];
    // Forbidden files: each row says why; the field names them all in one line.
    return problemsText(list.filter((p) => p.field === field), t);
  };
  // Why a listed file cannot be sent, by name (shown in its row at once).
  const rowProblems = useMemo(() => blockedFileRows(fileProblems, t), [fileProblems, t]);

  // Leaving the page unsent keeps the draft for this page's life (not once it is sent or sending).
  const draftRef = useRef<SendDraft>({ recipients, subject, body, validityText, level, files, phones });
  draftRef.current = { recipients, subject, body, validityText, level, files, phones };
  const transferRef = useRef(transfer);
  transferRef.current = transfer;
  useEffect(() => {
    sendDraftStore.clear();
    return () => {
      const current = transferRef.current;
      if (current && (isActive(current) || current.state === 'success')) sendDraftStore.clear();
      else sendDraftStore.keep(draftRef.current);
    };
  }, []);
  function discardDraft() {
    controller.reset();
    setPhones({});
    setRestored(null);
  }

  // The transfer finished (first run or a retry from the transfer centre) → success page.
  const succeeded = transfer?.state === 'success';
  const sent = succeeded ? (transfer.result as DeliveryDetail | undefined) : undefined;
  useEffect(() => {
    if (!succeeded) return;
    const state: SendSuccessState = { subject, recipients, ...(sent?.reviewState === 'inProgress' ? { scanning: { deliveryUuid: sent.deliveryUuid } } : {}) };
    void navigate(ROUTES.sendSuccess, { state });
  }, [succeeded, sent, navigate, subject, recipients]);

  /** The controller's deliver step here: the send runs as a transfer of the transfer centre (start-send.ts), which follows it from now on. */
  function start({ draft, files: chosen, keys }: DeliverRequest<File>, phoneMap: Record<string, string>) {
    const { id } = startSend({
      draft,
      files: chosen,
      ...(keys ? { keys, confirmChangedKey } : {}),
      phoneNumbers: Object.fromEntries(recipients.filter((r) => phoneMap[r]).map((r) => [r, phoneMap[r]!])),
      // A failed or cancelled earlier send of this form: continue its draft.
      ...(transfer && !isActive(transfer) && transfer.state !== 'success' ? { replaces: transfer.id } : {}),
    });
    setTransferId(id);
  }

  /** `chosenPhones`: just entered in the dialog before sending (state is not updated yet). */
  function submit(event?: FormEvent<HTMLFormElement>, chosenPhones?: Record<string, string>) {
    event?.preventDefault();
    if (controller.validate().length > 0 || running || checkingPhones.current) return;
    const phoneMap = chosenPhones ?? phones;
    if (!chosenPhones && config.signupRequiresSms) {
      checkingPhones.current = true;
      void recipientStatusNow(recipients, recipientStatus).then((statuses) => {
        checkingPhones.current = false;
        const need = unregistered(statuses);
        if (need.some((r) => !phoneMap[r])) {
          // Asked once per send; a recipient left without a number shows up in Sent ("missing phone numbers").
          setAskPhonesFor(need);
          setPhoneDialog('beforeSend');
        } else deliver(phoneMap);
      });
      return;
    }
    deliver(phoneMap);
  }

  function deliver(phoneMap: Record<string, string>) {
    // End-to-end levels need the sender's unlocked SecuPass keys first (null: the user cancelled, nothing is sent).
    void controller.submit({
      unlockKeys: unlockedKeys,
      deliver: async (request) => {
        start(request, phoneMap);
        return 'handedOver';
      },
    });
  }

  const failed = transfer && (transfer.state === 'failed' || transfer.state === 'cancelled');

  return (
    <>
      {restored ? (
        <Alert type="info">
          <span className={styles.alertText}>{t('send:draft.restored', { count: restored.files.length })}</span>
          <Button size="small" onClick={discardDraft}>
            {t('send:draft.discard')}
          </Button>
        </Alert>
      ) : null}
      <form className={styles.form} onSubmit={submit} noValidate aria-label={t('send:title')}>
        <RecipientChips
          label={t('send:recipients.label')}
          required
          // Reply-only accounts (ROLE_SENDER_EXTERNAL) write to the reply target only: the recipients are locked.
          disabled={running || config.sender?.replyOnly === true}
          value={recipients}
          onChange={(next) => controller.update({ recipients: next })}
          validationMessage={messageAt('recipients')}
          statuses={recipientStatus}
          endToEnd={form.needsKeys}
        />
        {needPhones.length > 0 ? (
          <div className={styles.actions}>
            <span>{t('send:phoneNumbers.hint', { count: needPhones.length })}</span>
            <Button icon={<PhoneRegular />} onClick={() => setPhoneDialog('edit')} disabled={running}>
              {t('send:phoneNumbers.button')}
            </Button>
          </div>
        ) : null}
        <Field label={t('send:subject.label')} required validationMessage={messageAt('subject')} validationState={messageAt('subject') ? 'error' : 'none'}>
          <Input value={subject} onChange={(_, data) => controller.update({ subject: data.value })} maxLength={MAX_SUBJECT_LENGTH + 1} disabled={running} />
        </Field>
        <Field label={t('send:body.label')} validationMessage={messageAt('body')} validationState={messageAt('body') ? 'error' : 'none'}>
          <Textarea value={body} onChange={(_, data) => controller.update({ body: data.value })} rows={8} resize="vertical" maxLength={MAX_BODY_LENGTH + 1} disabled={running} />
        </Field>
        <AttachmentsField
          files={files}
          disabled={running}
          validationMessage={messageAt('files')}
          rowProblems={rowProblems}
          onAdd={(added) => controller.addFiles(added)}
          onRemove={(index) => controller.removeFile(index)}
        />
        {validity.kind === 'range' ? (
          <Field
            label={t('send:validity.label')}
            hint={t('send:validity.hint', { min: validity.min, max: validity.max, days: validity.defaultDays })}
            validationMessage={messageAt('validityDays')}
            validationState={messageAt('validityDays') ? 'error' : 'none'}
          >
            <Input
              type="number"
              inputMode="numeric"
              min={validity.min}
              max={validity.max}
              placeholder={String(validity.defaultDays)}
              value={validityText}
              onChange={(_, data) => controller.update({ validityText: data.value })}
              disabled={running}
            />
          </Field>
        ) : (
          <p>{validity.kind === 'fixed' ? t('send:validity.fixed', { count: validity.days }) : t('send:validity.permanent')}</p>
        )}
        <Field label={t('send:level.label')} validationMessage={messageAt('securityLevel')} validationState={messageAt('securityLevel') ? 'error' : 'none'}>
          <RadioGroup value={level === undefined ? '' : String(level)} onChange={(_, data) => controller.update({ level: Number(data.value) as SecurityLevel })} disabled={running}>
            {allowed.map((value) => (
              <Radio
                key={value}
                value={String(value)}
                className={styles.levelRadio}
                label={{
                  children: (
                    <>
                      {t(`send:level.${securityLevelInfo(value).textKey}.title`)}
                      <span className={mergeClasses(styles.levelHint, running && styles.levelHintDisabled)}>{t(`send:level.${securityLevelInfo(value).textKey}.text`)}</span>
                    </>
                  ),
                }}
              />
            ))}
          </RadioGroup>
        </Field>
        {submitted && problems.length > 0 ? <Alert type="error">{t('send:fixProblems', { count: problems.length })}</Alert> : null}
        <div className={styles.actions}>
          <Button type="submit" appearance="primary" icon={<SendRegular />} disabled={running}>
            {t('send:submit')}
          </Button>
        </div>
      </form>

      {transfer && transfer.state !== 'success' ? (
        <section className={styles.progress} aria-label={t('send:progress.label')}>
          {failed && transfer.state === 'failed' ? (
            <Alert type="error" title={t('send:errors.title')}>
              {transfer.failure ? text(transfer.failure) : t('send:errors.unknown')}
            </Alert>
          ) : null}
          {failed && transfer.state === 'cancelled' ? <Alert type="warning">{t('send:progress.cancelled')}</Alert> : null}
          <CaptionedProgress caption={t('send:progress.overall', { percent: transfer.percent })} label={t('send:progress.label')} value={transfer.percent} max={100} />
          <ul className={styles.fileList}>
            {transfer.items.map((item) => (
              <li key={item.name}>
                <CaptionedProgress
                  caption={t('send:progress.file', {
                    name: item.name,
                    state: t(`send:itemState.${item.state}`),
                    done: formatSize(item.bytesDone, i18n.language),
                    total: formatSize(item.totalBytes, i18n.language),
                  })}
                  label={t('send:progress.fileLabel', { name: item.name })}
                  value={item.totalBytes === 0 ? 0 : item.bytesDone / item.totalBytes}
                />
              </li>
            ))}
          </ul>
          <div className={styles.actions}>
            {canPause(transfer) ? (
              <Button icon={<PauseRegular />} onClick={() => transferStore.pause(transfer.id)}>
                {t('send:progress.pause')}
              </Button>
            ) : null}
            {transfer.state === 'paused' ? (
              <Button appearance="primary" icon={<PlayRegular />} onClick={() => void transferStore.resume(transfer.id)}>
                {t('send:progress.resume')}
              </Button>
            ) : null}
            {running ? (
              <Button icon={<DismissRegular />} onClick={() => transferStore.cancel(transfer.id)}>
                {t('send:progress.cancel')}
              </Button>
            ) : null}
            {failed ? (
              <Button appearance="primary" icon={<ArrowClockwiseRegular />} onClick={() => void transferStore.retry(transfer.id)}>
                {t('send:progress.retry')}
              </Button>
            ) : null}
          </div>
        </section>
      ) : null}

      {changedKeyDialog}
      <PhoneNumbersDialog
        open={phoneDialog !== 'closed'}
        recipients={phoneDialog === 'beforeSend' ? askPhonesFor : needPhones}
        initial={phones}
        saveLabel={phoneDialog === 'beforeSend' ? t('deliveries:phoneNumbers.saveAndSend') : t('deliveries:phoneNumbers.save')}
        onCancel={() => setPhoneDialog('closed')}
        onSave={(numbers) => {
          const next = phoneDialog;
          setPhones(numbers);
          setPhoneDialog('closed');
          if (next === 'beforeSend') submit(undefined, numbers);
        }}
      />
    </>
  );
}

/** Send delivery success (SPEC §2; no sign-in flag): what was sent, and where to go next. */
export function SendSuccessPage() {
  const { t } = useTranslation();
  const state = useLocation().state as SendSuccessState | null;
  const navigate = useNavigate();
  const styles = useStyles();
  return (
    <>
      <PageHeading focusOnMount>{t('send:success.title')}</PageHeading>
      <Alert type="success">
        {state
          ? t(state.scanning ? 'send:success.textScanning' : 'send:success.textWithSubject', { subject: state.subject, recipients: state.recipients.join(', ') })
          : t('send:success.text')}
      </Alert>
      {state?.scanning ? <ScanOutcome deliveryUuid={state.scanning.deliveryUuid} /> : null}
      <div className={styles.actions}>
        <Button appearance="primary" onClick={() => void navigate(ROUTES.send)}>
          {t('send:success.sendAnother')}
        </Button>
        <Button onClick={() => void navigate(ROUTES.outbox)}>{t('send:success.toSent')}</Button>
      </div>
    </>
  );
}
