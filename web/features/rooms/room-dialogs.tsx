import { Button, Dialog, DialogActions, DialogBody, DialogContent, DialogSurface, DialogTitle, DialogTrigger, Field, Input, Text } from '@fluentui/react-components';
import { typedName } from '@shared/contract/names';
import { FormDialog } from '@web/components/form-dialog';
import { useNotify } from '@web/lib/toasts';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { LicenceExceededDialog, roomLicenceLimitOf } from './licence-exceeded-dialog';
import { roomErrorText } from './room-errors';

export interface NameRequest {
  title: string;
  label: string;
  submitLabel: string;
  initial: string;
  /** Creates or renames; the dialog shows the outcome. */
  run: (name: string) => Promise<void>;
  done: (name: string) => string;
  failed: (name: string) => string;
}

/**
 * Name a new room or folder, or rename one. The browser checks the one name rule first and the
 * server again (SPEC §5): either refusal (invalid characters, bidi or invisible characters, too
 * long, reserved, already exists) stands at the field; any other
 * refusal is a toast naming the item, and a denial (403/404) closes the dialog. A creation refused
 * for an overused licence (409 LicenseLimitExceededException) opens the licence-exceeded dialog
 * with its figures instead (SPEC §2, §8).
 */
export function NameDialog({ request, onClose }: { request: NameRequest | null; onClose: () => void }) {
  return request ? <NameForm key={request.title + request.initial} request={request} onClose={onClose} /> : null;
}

function NameForm({ request, onClose }: { request: NameRequest; onClose: () => void }) {
  const { t } = useTranslation();
  const notify = useNotify();
  const [name, setName] = useState(request.initial);
  const [problem, setProblem] = useState<string | undefined>();
  const [pending, setPending] = useState(false);
  const [licence, setLicence] = useState<ReturnType<typeof roomLicenceLimitOf>>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    // The one name rule (shared with the server and the delivery pages), before anything is sent:
    // an E2E room seals the name, so the server could not judge it there.
    const { name: trimmed, problem: nameProblem } = typedName(name);
    if (nameProblem) {
      setProblem(nameProblem === 'blank' ? t('common:validation.required') : t(`rooms:errors.name.${nameProblem}`));
      return;
    }
    setPending(true);
    setProblem(undefined);
    try {
      await request.run(trimmed);
      notify('success', request.done(trimmed));
      onClose();
    } catch (error) {
      const limit = roomLicenceLimitOf(error);
      if (limit) {
        setLicence(limit);
        return;
      }
      const text = roomErrorText(error);
      if (text.field === 'name') {
        setProblem(t(`rooms:${text.key}`, text.values));
      } else {
        notify('error', request.failed(trimmed), t(`rooms:${text.key}`, text.values));
        if (text.key === 'errors.forbidden' || text.key === 'errors.notFound') onClose();
      }
    } finally {
      setPending(false);
    }
  }

  // The licence dialog replaces the name dialog; closing it ends the creation.
  if (licence) return <LicenceExceededDialog limit={licence} onClose={onClose} />;
  return (
    <FormDialog open onClose={onClose} title={request.title} onSubmit={submit} submitLabel={request.submitLabel} submitDisabled={pending}>
      <Field label={request.label} required validationMessage={problem}>
        <Input value={name} autoFocus onChange={(_e, data) => setName(data.value)} />
      </Field>
    </FormDialog>
  );
}

export interface ConfirmRequest {
  title: string;
  text: string;
  confirmLabel: string;
  /** An outcome: some items of a selection failed (issue 32 §2); the toast names them. */
  run: () => Promise<void | PartialFailure>;
  done: string;
  failed: string;
}

/** A change over several items of which some failed: the toast's title and the failed items with their reasons. */
export interface PartialFailure {
  title: string;
  detail: string;
}

/** Asks before a change that cannot simply be taken back (delete, own access); the outcome is a toast. */
export function ConfirmDialog({ request, onClose }: { request: ConfirmRequest | null; onClose: () => void }) {
  const { t } = useTranslation();
  const notify = useNotify();
  const [pending, setPending] = useState(false);

  async function confirm() {
    if (!request) return;
    setPending(true);
    try {
      const partial = await request.run();
      if (partial) notify('error', partial.title, partial.detail);
      else notify('success', request.done);
    } catch (error) {
      const text = roomErrorText(error);
      notify('error', request.failed, t(`rooms:${text.key}`, text.values));
    } finally {
      setPending(false);
      onClose();
    }
  }

  return (
    <Dialog open={request !== null} onOpenChange={(_e, data) => (data.open ? undefined : onClose())} modalType="alert">
      <DialogSurface>
        <DialogBody>
          <DialogTitle>{request?.title}</DialogTitle>
          <DialogContent>
            <Text as="p" style={{ margin: 0 }}>
              {request?.text}
            </Text>
          </DialogContent>
          <DialogActions>
            <DialogTrigger disableButtonEnhancement>
              <Button appearance="secondary">{t('common:actions.cancel')}</Button>
            </DialogTrigger>
            <Button appearance="primary" onClick={() => void confirm()} disabled={pending}>
              {request?.confirmLabel}
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
