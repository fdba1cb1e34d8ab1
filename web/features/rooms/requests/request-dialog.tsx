import { Field, Input, makeStyles, Textarea } from '@fluentui/react-components';
import { isApiError } from '@shared/api/api-error';
import { ROOM_REQUEST_MESSAGE_MAX } from '@shared/contract/room-requests';
import { FormDialog } from '@web/components/form-dialog';
import { currentLanguage } from '@web/lib/i18n';
import { useNotify } from '@web/lib/toasts';
import { emailMessage, focusFirstInvalid } from '@web/lib/validation';
import { useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { createRoomRequest } from './api';

const useStyles = makeStyles({ content: { display: 'grid', gap: '16px' } });

/**
 * "Request files" (OWNER, EDITOR of a plain room): asks an address for files for this folder (or
 * the room's top level). The server mails the link; what the person sends lands here.
 */
export function RequestFilesDialog({ open, onClose, roomUuid, folderUuid, placeName }: { open: boolean; onClose: () => void; roomUuid: string; folderUuid: string | null; placeName: string }) {
  const { t } = useTranslation();
  const styles = useStyles();
  const notify = useNotify();
  const formRef = useRef<HTMLFormElement>(null);
  const [email, setEmail] = useState('');
  const [message, setMessage] = useState('');
  const [emailProblem, setEmailProblem] = useState<string | undefined>();
  const [pending, setPending] = useState(false);

  function close() {
    setEmail('');
    setMessage('');
    setEmailProblem(undefined);
    onClose();
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const problem = emailMessage(t, email.trim());
    setEmailProblem(problem);
    if (problem) {
      requestAnimationFrame(() => focusFirstInvalid(formRef.current));
      return;
    }
    setPending(true);
    try {
      await createRoomRequest(roomUuid, { folderUuid, email: email.trim(), message, language: currentLanguage() });
      notify('success', t('roomRequests:request.sent', { email: email.trim(), place: placeName }));
      close();
    } catch (error) {
      const reason = isApiError(error) ? (error.error?.metadata as { reason?: string } | undefined)?.reason : undefined;
      if (reason === 'invalidEmail' || reason === 'ownAddress') setEmailProblem(t(`roomRequests:request.${reason}`));
      else notify('error', t('roomRequests:request.failed', { place: placeName }), isApiError(error) ? error.message : undefined);
    } finally {
      setPending(false);
    }
  }

  return (
    <FormDialog
      open={open}
      onClose={close}
      title={t('roomRequests:request.title', { place: placeName })}
      onSubmit={submit}
      submitLabel={t('roomRequests:request.submit')}
      submitDisabled={pending}
      formRef={formRef}
      contentClassName={styles.content}
    >
      <p style={{ margin: 0 }}>{t('roomRequests:request.intro')}</p>
      <Field label={t('roomRequests:request.email')} required validationMessage={emailProblem}>
        <Input type="email" autoComplete="off" value={email} onChange={(_e, data) => setEmail(data.value)} />
      </Field>
      <Field label={t('roomRequests:request.message')}>
        <Textarea value={message} maxLength={ROOM_REQUEST_MESSAGE_MAX} onChange={(_e, data) => setMessage(data.value)} resize="vertical" />
      </Field>
    </FormDialog>
  );
}
