import {
  Button,
  Caption1,
  Field,
  Input,
  MessageBar,
  MessageBarBody,
  ProgressBar,
  Radio,
  RadioGroup,
  Spinner,
  Subtitle1,
  Text,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import { addinKeys, cryptoApi } from '@addin/crypto/addin-crypto';
import type { OfficeHost } from '@addin/office/office-host';
import type { AddinClient } from '@addin/session/addin-client';
import { isApiError } from '@shared/api/api-error';
import { getSendConfig } from '@shared/api/endpoints/send-config';
import type { DeliverySendConfig } from '@shared/contract/config';
import { isE2eLevel, securityLevelInfo } from '@shared/contract/security-levels';
import type { SecurityLevel } from '@shared/contract/deliveries';
import type { UnlockedKeys } from '@shared/crypto/service';
import { allowedSecurityLevels, checkSendForm, minimalSecurityLevel, validityChoice } from '@shared/deliveries';
import { sendDelivery, type SendProgress } from '@shared/transfer';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ADDIN_ERROR_KEYS, messageOfProblem, messageOfSendError, type AddinMessage } from './addin-errors';
import { readAttachmentFiles, readComposedMail, type ComposedMail } from './compose-mail';
import { UnlockSecuPassDialog } from './unlock-secupass-dialog';

const useStyles = makeStyles({
  screen: { display: 'grid', gap: '12px' },
  list: { margin: 0, paddingLeft: '20px' },
  body: { whiteSpace: 'pre-wrap', maxHeight: '8em', overflow: 'auto', border: '1px solid #d1d1d1', padding: '6px' },
  // Fluent greys an unchecked radio's label: enabled levels read in the text colour, disabled ones greyed.
  levelRadio: { '& .fui-Radio__input:enabled:not(:checked) ~ .fui-Radio__label': { color: tokens.colorNeutralForeground1 } },
});


interface Props {
  addin: AddinClient;
  host: OfficeHost;
  /** The signed-in user (whose SecuPass unlocks levels 3/4). */
  userUuid: string;
  /** The session ended (401): back to the sign-in. */
  onSignedOut(): void;
}

type State =
  | { kind: 'loading' }
  | { kind: 'ready'; mail: ComposedMail; config: DeliverySendConfig }
  | { kind: 'failed'; message: AddinMessage }
  | { kind: 'sent' };

/**
 * The add-in send screen (SPEC §2): the composed mail, the security level (what the send config
 * and the user's group allow; the minimal one preselected), validity, upload with progress
 * through the shared transfer engine; after success the compose item is emptied and closed.
 */
export function SendScreen({ addin, host, userUuid, onSignedOut }: Props) {
  const { t } = useTranslation();
  const styles = useStyles();
  const [state, setState] = useState<State>({ kind: 'loading' });
  const [level, setLevel] = useState<SecurityLevel | undefined>();
  const [validity, setValidity] = useState<string>('');
  const [error, setError] = useState<AddinMessage | null>(null);
  const [progress, setProgress] = useState<SendProgress | null>(null);
  // Files picked in the pane itself: beyond Outlook's attachment limits (DESIGN §6).
  const [picked, setPicked] = useState<File[]>([]);
  const fileInput = useRef<HTMLInputElement>(null);
  // Levels 3/4 with locked keys: the passphrase dialog is open.
  const [unlocking, setUnlocking] = useState(false);

  useEffect(() => {
    let live = true;
    (async () => {
      try {
        const config = await getSendConfig(addin.client);
        const mail = await readComposedMail(host);
        if (!live) return;
        setLevel(minimalSecurityLevel(config));
        const choice = validityChoice(config);
        setValidity(choice.kind === 'range' ? String(choice.defaultDays) : choice.kind === 'fixed' ? String(choice.days) : '');
        setState({ kind: 'ready', mail, config });
      } catch (cause) {
        if (!live) return;
        if (isApiError(cause) && cause.status === 401) onSignedOut();
        else setState({ kind: 'failed', message: { key: isApiError(cause) && cause.status === 403 ? ADDIN_ERROR_KEYS.forbidden : ADDIN_ERROR_KEYS.unknown } });
      }
    })();
    return () => {
      live = false;
    };
  }, [addin, host, onSignedOut]);

  const levels = useMemo(() => (state.kind === 'ready' ? allowedSecurityLevels(state.config) : []), [state]);

  if (state.kind === 'loading') return <Spinner label={t('addin:send.loading')} />;
  if (state.kind === 'failed') {
    return (
      <MessageBar intent="error" role="alert">
        <MessageBarBody>{t(state.message.key, state.message.values)}</MessageBarBody>
      </MessageBar>
    );
  }
  if (state.kind === 'sent') {
    return (
      <MessageBar intent="success" role="status">
        <MessageBarBody>{t('addin:send.sent')}</MessageBarBody>
      </MessageBar>
    );
  }

  const { mail, config } = state;
  const choice = validityChoice(config);
  const sending = progress !== null && progress.phase !== 'failed' && progress.phase !== 'done';

  async function send(unlockedKeys?: UnlockedKeys) {
    setError(null);
    const validityDays = choice.kind === 'permanent' ? undefined : Number(validity);
    if (levels.length === 0 || level === undefined) {
      setError({ key: ADDIN_ERROR_KEYS.noSecurityLevelPermission });
      return;
    }
    const form = {
      recipients: mail.recipients,
      additionalRecipients: mail.additionalRecipients,
      subject: mail.subject,
      body: mail.body,
      files: [...mail.attachments.map((a) => ({ name: a.name, size: a.size })), ...picked.map((f) => ({ name: f.name, size: f.size }))],
      validityDays,
      securityLevel: level,
    };
    const problem = checkSendForm(form, config)[0];
    if (problem) {
      setError(messageOfProblem(problem));
      return;
    }
    // Levels 3/4 encrypt in the add-in's crypto Worker with the sender's unlocked keys.
    const e2eLevel = isE2eLevel(level);
    const keys = e2eLevel ? (unlockedKeys ?? addinKeys.get(userUuid)) : null;
    if (e2eLevel && !keys) {
      setUnlocking(true);
      return;
    }
    setProgress({ phase: 'draft', files: [], bytesSent: 0, totalBytes: 0, percent: 0 });
    let files: File[];
    try {
      files = [...(await readAttachmentFiles(host, mail.attachments)), ...picked];
    } catch {
      setProgress(null);
      setError({ key: 'addin:send.attachmentUnreadable' });
      return;
    }
    const result = await sendDelivery({
      client: addin.client,
      draft: { recipients: form.recipients, additionalRecipients: form.additionalRecipients, subject: form.subject, body: form.body, validityDays, securityLevel: level },
      files: files.map((file) => ({ name: file.name, blob: file, mimeType: file.type })),
      onProgress: setProgress,
      // A changed recipient key is never confirmed here: the send stops with `keyChanged`.
      ...(keys ? { e2e: { crypto: cryptoApi, keys } } : {}),
    });
    if (!result.ok) {
      if (result.error.code === 'authenticationRequired') {
        onSignedOut();
        return;
      }
      setError(messageOfSendError(result.error));
      return;
    }
    // Only now, after the server confirmed the send: Outlook must never send the plain mail.
    try {
      await host.replaceAndClose(t('addin:send.notice', { subject: mail.subject }));
    } catch {
      await host.notify('info', t('addin:send.closeYourself')).catch(() => undefined);
    }
    setState({ kind: 'sent' });
  }

  return (
    <div className={styles.screen}>
      <Subtitle1 as="h1">{t('addin:send.title')}</Subtitle1>
      {error && (
        <MessageBar intent="error" role="alert" layout="multiline">
          <MessageBarBody>{t(error.key, error.values)}</MessageBarBody>
        </MessageBar>
      )}
      <section aria-label={t('addin:send.mail')}>
        <Caption1>{t('addin:send.recipients')}</Caption1>
        <Text as="p" data-testid="addin-recipients">
          {[...mail.recipients, ...mail.additionalRecipients].join(', ') || t('addin:send.none')}
        </Text>
        <Caption1>{t('addin:send.subject')}</Caption1>
        <Text as="p" data-testid="addin-subject">
          {mail.subject || t('addin:send.none')}
        </Text>
        <Caption1>{t('addin:send.body')}</Caption1>
        <div className={styles.body}>{mail.body || t('addin:send.none')}</div>
        <Caption1>{t('addin:send.attachments')}</Caption1>
        <ul className={styles.list} data-testid="addin-attachments">
          {mail.attachments.length === 0 && picked.length === 0 && <li>{t('addin:send.none')}</li>}
          {mail.attachments.map((a) => (
            <li key={a.id}>{a.name}</li>
          ))}
          {picked.map((f) => (
            <li key={`picked-${f.name}`}>
              {f.name}{' '}
              <Button size="small" appearance="subtle" disabled={sending} onClick={() => setPicked(picked.filter((p) => p !== f))}>
                {t('addin:send.removeFile', { name: f.name })}
              </Button>
            </li>
          ))}
        </ul>
        <input
          ref={fileInput}
          type="file"
          multiple
          hidden
          data-testid="addin-file-input"
          onChange={(e) => {
            const chosen = [...(e.currentTarget.files ?? [])];
            setPicked((current) => [...current, ...chosen]);
            e.currentTarget.value = '';
          }}
        />
        <Button size="small" disabled={sending} onClick={() => fileInput.current?.click()}>
          {t('addin:send.addFiles')}
        </Button>
      </section>
      {levels.length === 0 ? (
        <MessageBar intent="warning">
          <MessageBarBody>{t(ADDIN_ERROR_KEYS.noSecurityLevelPermission)}</MessageBarBody>
        </MessageBar>
      ) : (
        <Field label={t('addin:send.level')}>
          <RadioGroup value={level === undefined ? '' : String(level)} onChange={(_, d) => setLevel(Number(d.value) as SecurityLevel)}>
            {levels.map((l) => (
              <Radio key={l} value={String(l)} className={styles.levelRadio} label={t(`addin:send.${securityLevelInfo(l).textKey}`)} disabled={sending} />
            ))}
          </RadioGroup>
        </Field>
      )}
      {choice.kind === 'range' && (
        <Field label={t('addin:send.validity')} hint={t('addin:send.validityHint', { min: choice.min, max: choice.max })}>
          <Input type="number" min={choice.min} max={choice.max} value={validity} onChange={(_, d) => setValidity(d.value)} disabled={sending} />
        </Field>
      )}
      {choice.kind === 'fixed' && <Text>{t('addin:send.validityFixed', { days: choice.days })}</Text>}
      {progress && progress.phase !== 'failed' && (
        <Field label={t('addin:send.progress', { percent: progress.percent })} validationState="none">
          <ProgressBar value={progress.percent / 100} />
        </Field>
      )}
      <Button appearance="primary" onClick={() => void send()} disabled={sending || unlocking}>
        {t('addin:send.submit')}
      </Button>
      <UnlockSecuPassDialog
          open={unlocking}
          addin={addin}
          host={host}
          userUuid={userUuid}
          onCancel={() => setUnlocking(false)}
          onUnlocked={(keys) => {
            setUnlocking(false);
            void send(keys);
          }}
        />
    </div>
  );
}
