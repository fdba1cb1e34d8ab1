import { Button, Field, makeStyles, Radio, RadioGroup, Spinner, Text, Textarea } from '@fluentui/react-components';
import { SendRegular } from '@fluentui/react-icons';
import { isApiError } from '@shared/api/api-error';
import { MAX_BODY_LENGTH, type DeliveryDetail, type SecurityLevel } from '@shared/contract/deliveries';
import { safeBackPath, type RoomRequestInfo } from '@shared/contract/room-requests';
import { SECURITY_LEVEL_TABLE } from '@shared/contract/security-levels';
import { checkFiles } from '@shared/rules/send-rules';
import { ruleFile } from '@shared/send/send-controller';
import { Alert } from '@web/components/alert';
import { PageHeading } from '@web/components/page-heading';
import { CaptionedProgress } from '@web/components/transfer-centre';
import { track } from '@web/lib/analytics/analytics';
import { ANALYTICS_ACTIONS } from '@web/lib/analytics/actions';
import { useAuthState } from '@web/lib/auth';
import { useFragmentToken } from '@web/lib/fragment-token';
import { ROUTES } from '@web/lib/routes';
import { isActive, useTransfer } from '@web/lib/transfer-store';
import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { createRoomRequestDelivery, useRoomRequestInfo } from '../api/room-request';
import { useSendConfig } from '../api/send-config';
import { AttachmentsField } from './attachments-field';
import { blockedFileRows, problemsText } from './send-messages';
import type { SendSuccessState } from './send-page';
import { startSend } from './start-send';

const useStyles = makeStyles({
  form: { display: 'flex', flexDirection: 'column', gap: '16px', maxWidth: '760px' },
  actions: { display: 'flex', gap: '8px', flexWrap: 'wrap' },
});

/**
 * Send delivery, data-room request variant (SPEC §2 "dar"; `/secumails/send?back=…#dar=<token>`,
 * an older mail's `?dar=` moved into the fragment):
 * what was asked for by whom, the requester as the fixed recipient, levels 1/2 only (the server
 * copies the files into the room). Files are checked as they are added, by the normal send page's
 * §5 rules and messages (forbidden types in their rows). After the send: `back` when it is a
 * same-origin path (safeBackPath), else the send success page.
 */
export function DarSendPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const token = useFragmentToken('dar');
  const info = useRoomRequestInfo(token);
  const me = useAuthState().user;
  let problem: string | null = null;
  if (info.error) problem = isApiError(info.error) && info.error.status === 410 ? t('roomRequests:send.gone') : t('roomRequests:send.notFound');
  else if (info.data && me && me.email.toLowerCase() !== info.data.email.toLowerCase()) problem = t('roomRequests:send.otherAccount', { email: info.data.email, me: me.email });
  return (
    <>
      <PageHeading focusOnMount>{t('roomRequests:send.title')}</PageHeading>
      {problem ? <Alert type="error">{problem}</Alert> : null}
      {!problem && !info.data ? <Spinner label={t('common:loading')} /> : null}
      {!problem && info.data && token ? <DarSendForm token={token} info={info.data} back={safeBackPath(params.get('back'))} /> : null}
    </>
  );
}

function DarSendForm({ token, info, back }: { token: string; info: RoomRequestInfo; back: string | null }) {
  const { t } = useTranslation();
  const styles = useStyles();
  const navigate = useNavigate();
  const config = useSendConfig().data;
  const levels = SECURITY_LEVEL_TABLE.filter((l) => !l.e2e && (!config || config[l.allowFlag])).map((l) => l.wire);
  const [level, setLevel] = useState<SecurityLevel | undefined>();
  const [body, setBody] = useState('');
  const [files, setFiles] = useState<File[]>([]);
  const [filesProblem, setFilesProblem] = useState<string | undefined>();
  const [failure, setFailure] = useState<string | null>(null);
  const [transferId, setTransferId] = useState<string>();
  const [pending, setPending] = useState(false);
  const transfer = useTransfer(transferId);
  const chosen = level ?? levels[0];
  const place = info.folderName ? `${info.roomName} / ${info.folderName}` : info.roomName;
  // The normal send page's file checks (shared rules, the send config's forbidden types), at once.
  const fileProblems = useMemo(() => checkFiles(files.map(ruleFile), config?.filePolicy), [files, config]);
  const rowProblems = useMemo(() => blockedFileRows(fileProblems, t), [fileProblems, t]);
  const filesMessage = filesProblem ?? problemsText(fileProblems, t);

  const succeeded = transfer?.state === 'success';
  useEffect(() => {
    if (!succeeded) return;
    if (back) {
      void navigate(back);
      return;
    }
    const sent = transfer.result as DeliveryDetail | undefined;
    const state: SendSuccessState = { subject: place, recipients: [info.requesterEmail], ...(sent?.reviewState === 'inProgress' ? { scanning: { deliveryUuid: sent.deliveryUuid } } : {}) };
    void navigate(ROUTES.sendSuccess, { state });
  }, [succeeded, transfer, back, navigate, place, info.requesterEmail]);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (files.length === 0) {
      setFilesProblem(t('roomRequests:send.noFiles'));
      return;
    }
    // A problem is already shown at the attachments: nothing is created or uploaded.
    if (fileProblems.length > 0) return;
    setFilesProblem(undefined);
    setFailure(null);
    setPending(true);
    track(ANALYTICS_ACTIONS.darButton, { files: files.length });
    try {
      const draft = await createRoomRequestDelivery(token, { body, ...(chosen !== undefined ? { securityLevel: chosen } : {}) });
      const { id } = startSend({ draft: { recipients: [info.requesterEmail], subject: draft.subject, body }, files, existingDraft: draft.deliveryUuid });
      setTransferId(id);
    } catch (error) {
      const status = isApiError(error) ? error.status : 0;
      setFailure(status === 410 ? t('roomRequests:send.gone') : status === 409 ? t('roomRequests:send.encryptedLevel') : t('roomRequests:send.failed'));
    } finally {
      setPending(false);
    }
  }

  const running = transfer !== undefined && isActive(transfer);
  return (
    <>
      <Alert type="info">{t('roomRequests:send.intro', { name: info.requesterName, email: info.requesterEmail, place })}</Alert>
      {info.message ? (
        <Text as="p" block>
          {t('roomRequests:send.message')} {info.message}
        </Text>
      ) : null}
      {failure ? <Alert type="error">{failure}</Alert> : null}
      {transfer?.state === 'failed' && transfer.failure ? <Alert type="error">{t(transfer.failure.key, transfer.failure.values)}</Alert> : null}
      <form className={styles.form} onSubmit={(event) => void submit(event)} noValidate>
        <Field label={t('roomRequests:send.recipient')}>
          <Text>{info.requesterName === info.requesterEmail ? info.requesterEmail : `${info.requesterName} <${info.requesterEmail}>`}</Text>
        </Field>
        {levels.length > 1 ? (
          <Field label={t('send:level.label')}>
            <RadioGroup value={chosen === undefined ? '' : String(chosen)} onChange={(_e, data) => setLevel(Number(data.value) as SecurityLevel)} disabled={running}>
              {levels.map((value) => (
                <Radio key={value} value={String(value)} label={t(`send:level.${SECURITY_LEVEL_TABLE.find((l) => l.wire === value)!.textKey}.title`)} />
              ))}
            </RadioGroup>
          </Field>
        ) : null}
        <Field label={t('roomRequests:send.body')}>
          <Textarea value={body} maxLength={MAX_BODY_LENGTH} onChange={(_e, data) => setBody(data.value)} disabled={running} resize="vertical" />
        </Field>
        <AttachmentsField
          files={files}
          onAdd={(added) => {
            setFilesProblem(undefined);
            setFiles((current) => [...current, ...added.filter((f) => !current.some((c) => c.name === f.name))]);
          }}
          onRemove={(index) => setFiles((current) => current.filter((_f, i) => i !== index))}
          {...(filesMessage ? { validationMessage: filesMessage } : {})}
          rowProblems={rowProblems}
          disabled={running}
        />
        <div className={styles.actions}>
          <Button type="submit" appearance="primary" icon={<SendRegular />} disabled={running || pending}>
            {t('roomRequests:send.submit')}
          </Button>
        </div>
      </form>
      {transfer && transfer.state !== 'success' ? (
        <CaptionedProgress caption={t('send:progress.overall', { percent: transfer.percent })} label={t('send:progress.label')} value={transfer.percent} max={100} />
      ) : null}
    </>
  );
}
