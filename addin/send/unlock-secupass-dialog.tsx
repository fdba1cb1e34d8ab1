import { Button, Dialog, DialogActions, DialogBody, DialogContent, DialogSurface, DialogTitle, Field, Input, MessageBar, MessageBarBody, Spinner } from '@fluentui/react-components';
import { addinKeys } from '@addin/crypto/addin-crypto';
import type { OfficeHost } from '@addin/office/office-host';
import type { AddinClient } from '@addin/session/addin-client';
import { getOwnSecuPass, putSecuPass } from '@shared/api/endpoints/secupass';
import type { OwnSecuPassResponse } from '@shared/contract/secupass';
import type { UnlockedKeys } from '@shared/crypto/service';
import { useUnlockForm } from '@shared/secupass/use-unlock-form';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';

/** The web client's page that sets a SecuPass (web/lib/routes.ts `setSecuPass`); the pane is served by the same server. */
export const SET_SECUPASS_PATH = '/auth/set-secupass';

interface Props {
  /** Kept mounted and opened/closed through `open`, so Fluent restores the pane's accessibility tree on close. */
  open: boolean;
  addin: AddinClient;
  host: OfficeHost;
  userUuid: string;
  onUnlocked(keys: UnlockedKeys): void;
  onCancel(): void;
}

/**
 * Levels 3/4 in the pane: asks for the SecuPass passphrase and unlocks the keys in the add-in's
 * crypto Worker (as the web client's unlock dialog: fetch the blob, unlock, a v2 blob is stored
 * back as v3). Without a SecuPass it points to the web client, where one is created.
 */
export function UnlockSecuPassDialog({ open, addin, host, userUuid, onUnlocked, onCancel }: Props) {
  const { t } = useTranslation();
  const formId = useId();
  const [own, setOwn] = useState<OwnSecuPassResponse | 'loading' | 'failed'>('loading');
  const form = useUnlockForm(addinKeys, (body) => putSecuPass(addin.client, body));
  const { reset } = form;

  useEffect(() => {
    if (!open) return;
    setOwn('loading');
    reset();
    let live = true;
    getOwnSecuPass(addin.client).then(
      (answer) => live && setOwn(answer),
      () => live && setOwn('failed'),
    );
    return () => {
      live = false;
    };
  }, [addin, open, reset]);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (typeof own !== 'object' || !own.blob) return;
    // Unlock, v2 → v3 upgrade upload, wrong passphrase: the shared keys session (shared/secupass).
    const outcome = await form.submit({ userUuid, blob: own.blob });
    if (outcome?.ok) onUnlocked(outcome.keys);
  }

  const state = typeof own === 'object' ? own.state : undefined;
  return (
    <Dialog open={open} onOpenChange={(_e, data) => !data.open && onCancel()}>
      <DialogSurface>
        <DialogBody>
          <DialogTitle>{t('addin:unlock.title')}</DialogTitle>
          <DialogContent>
            {own === 'loading' && <Spinner size="small" label={t('addin:loading')} />}
            {own === 'failed' && (
              <MessageBar intent="error" role="alert">
                <MessageBarBody>{t('addin:unlock.loadFailed')}</MessageBarBody>
              </MessageBar>
            )}
            {(state === 'none' || state === 'reset') && (
              <div style={{ display: 'grid', gap: 12 }}>
                <MessageBar intent="warning" role="alert" layout="multiline">
                  <MessageBarBody>{t(state === 'none' ? 'addin:unlock.none' : 'addin:unlock.reset')}</MessageBarBody>
                </MessageBar>
                <Button onClick={() => host.openBrowserWindow(new URL(SET_SECUPASS_PATH, window.location.href).href)}>{t('addin:unlock.create')}</Button>
              </div>
            )}
            {state === 'active' && (
              <form id={formId} onSubmit={(e) => void submit(e)} noValidate style={{ display: 'grid', gap: 12 }} aria-busy={form.pending}>
                <p style={{ margin: 0 }}>{t('addin:unlock.intro')}</p>
                {form.failure && (
                  <MessageBar intent="error" role="alert">
                    <MessageBarBody>{t('addin:unlock.failed')}</MessageBarBody>
                  </MessageBar>
                )}
                <Field label={t('addin:unlock.passphrase')} required validationMessage={form.fieldError && t(form.fieldError === 'required' ? 'addin:unlock.required' : 'addin:unlock.wrongPassphrase')}>
                  <Input type="password" name="passphrase" autoComplete="current-password" autoFocus value={form.passphrase} onChange={(_e, data) => form.setPassphrase(data.value)} />
                </Field>
              </form>
            )}
          </DialogContent>
          <DialogActions>
            <Button appearance="secondary" onClick={onCancel} disabled={form.pending}>
              {t('addin:unlock.cancel')}
            </Button>
            {state === 'active' && (
              <Button type="submit" form={formId} appearance="primary" disabled={form.pending}>
                {form.pending ? t('addin:unlock.submitting') : t('addin:unlock.submit')}
              </Button>
            )}
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
