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
import type { ComposeAttachment, OfficeHost } from '@addin/office/office-host';
import type { AddinClient } from '@addin/session/addin-client';
import { isApiError } from '@shared/api/api-error';
import { getSendConfig } from '@shared/api/endpoints/send-config';
import type { DeliverySendConfig } from '@shared/contract/config';
import { securityLevelInfo } from '@shared/contract/security-levels';
import type { SecurityLevel } from '@shared/contract/deliveries';
import type { UnlockedKeys } from '@shared/crypto/service';
import { validityChoice } from '@shared/deliveries';
import { deliverWithEngine, type SendControllerFile } from '@shared/send/send-controller';
import { useSendController } from '@shared/send/use-send-controller';
import { useEffect, useRef, useState } from 'react';
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

/** A file of the pane's send: an attachment of the Outlook mail (read when sending) or one picked in the pane. */
type PaneFile = SendControllerFile & ({ attachment: ComposeAttachment } | { picked: File });

/**
 * The add-in send screen (SPEC §2): the composed mail, the security level (what the send config
 * and the user's group allow; the minimal one preselected), validity, upload with progress
 * through the shared transfer engine; after success the compose item is emptied and closed.
 * The form is a view of the shared send controller (shared/send), as the web send page is.
 */
export function SendScreen({ addin, host, userUuid, onSignedOut }: Props) {
  const { t } = useTranslation();
  const [state, setState] = useState<State>({ kind: 'loading' });

  useEffect(() => {
    let live = true;
    (async () => {
      try {
        const config = await getSendConfig(addin.client);
        const mail = await readComposedMail(host);
        if (!live) return;
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
  return (
    <SendForm addin={addin} host={host} userUuid={userUuid} onSignedOut={onSignedOut} mail={state.mail} config={state.config} onSent={() => setState({ kind: 'sent' })} />
  );
}

function SendForm({ addin, host, userUuid, onSignedOut, mail, config, onSent }: Props & { mail: ComposedMail; config: DeliverySendConfig; onSent(): void }) {
  const { t } = useTranslation();
  const styles = useStyles();
  const [form, controller] = useSendController<PaneFile>({
    config,
    initial: {
      recipients: mail.recipients,
      additionalRecipients: mail.additionalRecipients,
      subject: mail.subject,
      body: mail.body,
      files: mail.attachments.map((attachment) => ({ name: attachment.name, size: attachment.size, attachment })),
      // The pane shows the default days in the field (the web form shows them as its placeholder).
      validityText: (() => {
        const choice = validityChoice(config);
        return choice.kind === 'range' ? String(choice.defaultDays) : '';
      })(),
    },
  });
  const [error, setError] = useState<AddinMessage | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  // Levels 3/4 with locked keys: the passphrase dialog is open; `answerUnlock` settles the controller's wait.
  const [unlocking, setUnlocking] = useState(false);
  const answerUnlock = useRef<(keys: UnlockedKeys | null) => void>(() => undefined);

  const { fields, allowedLevels: levels, validity: choice, progress } = form;
  const level = fields.level;
  const picked = fields.files.flatMap((file, index) => ('picked' in file ? [{ file: file.picked, index }] : []));
  const sending = form.phase === 'sending';

  async function send() {
    setError(null);
    if (levels.length === 0 || level === undefined) {
      setError({ key: ADDIN_ERROR_KEYS.noSecurityLevelPermission });
      return;
    }
    const problem = controller.validate()[0];
    if (problem) {
      setError(messageOfProblem(problem));
      return;
    }
    const outcome = await controller.submit({
      // Levels 3/4 encrypt in the add-in's crypto Worker with the sender's unlocked keys.
      unlockKeys: async () =>
        addinKeys.keysOf(userUuid) ??
        new Promise<UnlockedKeys | null>((resolve) => {
          answerUnlock.current = resolve;
          setUnlocking(true);
        }),
      // A changed recipient key is never confirmed here: the send stops with `keyChanged`.
      deliver: deliverWithEngine<PaneFile>({
        client: addin.client,
        crypto: cryptoApi,
        sources: async (files) => {
          // Outlook's attachments are read once, now (DESIGN §6); files picked in the pane are at hand.
          const read = await readAttachmentFiles(host, files.flatMap((f) => ('attachment' in f ? [f.attachment] : [])));
          return [...read, ...files.flatMap((f) => ('picked' in f ? [f.picked] : []))].map((file) => ({ name: file.name, blob: file, mimeType: file.type }));
        },
      }),
    });
    if (outcome.kind === 'thrown') {
      setError({ key: 'addin:send.attachmentUnreadable' });
      return;
    }
    if (outcome.kind === 'failed') {
      if (outcome.error.code === 'authenticationRequired') onSignedOut();
      else setError(messageOfSendError(outcome.error));
      return;
    }
    if (outcome.kind !== 'sent') return;
    // Only now, after the server confirmed the send: Outlook must never send the plain mail.
    try {
      await host.replaceAndClose(t('addin:send.notice', { subject: mail.subject }));
    } catch {
      await host.notify('info', t('addin:send.closeYourself')).catch(() => undefined);
    }
    onSent();
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
          {picked.map(({ file, index }) => (
            <li key={`picked-${file.name}`}>
              {file.name}{' '}
              <Button size="small" appearance="subtle" disabled={sending} onClick={() => controller.removeFile(index)}>
                {t('addin:send.removeFile', { name: file.name })}
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
            controller.addFiles(chosen.map((file) => ({ name: file.name, size: file.size, type: file.type, picked: file })));
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
          <RadioGroup value={level === undefined ? '' : String(level)} onChange={(_, d) => controller.update({ level: Number(d.value) as SecurityLevel })}>
            {levels.map((l) => (
              <Radio key={l} value={String(l)} className={styles.levelRadio} label={t(`addin:send.${securityLevelInfo(l).textKey}`)} disabled={sending} />
            ))}
          </RadioGroup>
        </Field>
      )}
      {choice.kind === 'range' && (
        <Field label={t('addin:send.validity')} hint={t('addin:send.validityHint', { min: choice.min, max: choice.max })}>
          <Input type="number" min={choice.min} max={choice.max} value={fields.validityText} onChange={(_, d) => controller.update({ validityText: d.value })} disabled={sending} />
        </Field>
      )}
      {choice.kind === 'fixed' && <Text>{t('addin:send.validityFixed', { days: choice.days })}</Text>}
      {progress && progress.phase !== 'failed' && (
        <Field
          label={t('addin:send.progress', { percent: progress.percent })}
          // A file waiting for the server: the engine goes on by itself when it answers; the bar keeps its place.
          {...(progress.files.some((f) => f.state === 'paused') ? { hint: t('addin:send.waitingForServer') } : {})}
          validationState="none"
        >
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
        onCancel={() => {
          setUnlocking(false);
          answerUnlock.current(null);
        }}
        onUnlocked={(keys) => {
          setUnlocking(false);
          answerUnlock.current(keys);
        }}
      />
    </div>
  );
}
