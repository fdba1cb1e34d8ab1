import { Button, Checkbox, Dialog, DialogActions, DialogBody, DialogContent, DialogSurface, DialogTitle, DialogTrigger, Field, Input, Spinner } from '@fluentui/react-components';
import type { UnlockedKeys } from '@shared/crypto/service';
import { useUnlockForm } from '@shared/secupass/use-unlock-form';
import { Alert } from '@web/components/alert';
import { RouterLink } from '@web/components/router-link';
import { useAuthState } from '@web/lib/auth';
import { keptUnlockSessionTag, secuPassKeys } from '@web/lib/crypto';
import { ROUTES } from '@web/lib/routes';
import type { UnlockPurpose } from '@web/lib/unlock-request';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import type { TFunction } from 'i18next';
import { replaceOwnSecuPass, revalidateOwnSecuPass, useOwnSecuPass } from './api/own-secupass';
import { ANALYTICS_ACTIONS } from '@web/lib/analytics/actions';
import { track } from '@web/lib/analytics/analytics';

/** Title and submit button per purpose: the dialog says what happens after the unlock. */
function purposeTexts(t: TFunction, purpose: UnlockPurpose): { title: string; submit: string } {
  switch (purpose) {
    case 'send':
      return { title: t('secupass:unlock.title.send'), submit: t('secupass:unlock.submit.send') };
    case 'release':
      return { title: t('secupass:unlock.title.release'), submit: t('secupass:unlock.submit.release') };
    case 'decrypt':
      return { title: t('secupass:unlock.title.decrypt'), submit: t('secupass:unlock.submit.decrypt') };
    default:
      return { title: t('secupass:unlock.title.unlock'), submit: t('secupass:unlock.submit.unlock') };
  }
}

/**
 * "Enter your passphrase to decrypt" (SPEC §2), worded for the action that waits for the keys
 * (`purpose`: send, release, decrypt, or just unlock from the settings). Unlocks the user's keys in the crypto Worker for
 * the session; a v2 blob comes back upgraded to v3 and is stored (PUT). Deliveries and rooms
 * open it when they need the private key; the app composes it where it is needed.
 * Render it always and close it through `open`: a Fluent dialog unmounted while open can leave the
 * page aria-hidden. The content mounts with the surface, so the SecuPass state is requested only
 * while the dialog is open (anonymous pages must not ask) and each opening starts empty.
 */
export function UnlockSecuPassDialog({
  open,
  purpose = 'unlock',
  onOpenChange,
  onUnlocked,
}: {
  open: boolean;
  purpose?: UnlockPurpose;
  onOpenChange: (open: boolean) => void;
  onUnlocked?: (keys: UnlockedKeys) => void;
}) {
  return (
    <Dialog open={open} onOpenChange={(_e, data) => onOpenChange(data.open)}>
      <DialogSurface>
        <UnlockSecuPassContent purpose={purpose} onClose={() => onOpenChange(false)} {...(onUnlocked ? { onUnlocked } : {})} />
      </DialogSurface>
    </Dialog>
  );
}

function UnlockSecuPassContent({ purpose, onClose, onUnlocked }: { purpose: UnlockPurpose; onClose: () => void; onUnlocked?: (keys: UnlockedKeys) => void }) {
  const { t } = useTranslation();
  const { user } = useAuthState();
  const location = useLocation();
  const own = useOwnSecuPass();
  const formId = useId();
  const form = useUnlockForm(secuPassKeys, replaceOwnSecuPass);
  // Off by default (opt-in: shared/crypto/README "Unlock kept for a reload"); shows the current choice.
  const [keep, setKeep] = useState(() => secuPassKeys.kept());
  const keepHintId = useId();

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!user || !own.data?.blob) return;
    // Unlock, v2 → v3 upgrade upload, wrong passphrase: the shared keys session (shared/secupass).
    const outcome = await form.submit({ userUuid: user.uuid, blob: own.data.blob, ...(keep ? { keepForSession: { sessionTag: keptUnlockSessionTag() } } : {}) });
    if (!outcome?.ok) return;
    track(ANALYTICS_ACTIONS.passphraseEntered);
    // A v2 SecuPass was re-sealed as v3 and stored: SPEC's "passphrase upgraded".
    if (outcome.upgrade === 'stored') track(ANALYTICS_ACTIONS.passphraseUpgraded);
    if (outcome.upgrade === 'stored') void revalidateOwnSecuPass();
    if (outcome.upgrade === 'failed') console.debug('[secupass] upgrade upload failed; the next unlock retries');
    onUnlocked?.(outcome.keys);
    onClose();
  }

  const state = own.data?.state;
  // Setting the passphrase leaves the page: the dialog closes (the request answers null) and the
  // set page comes back here afterwards (`continue`); the send page keeps its draft meanwhile.
  const setPath = `${ROUTES.setSecuPass}?continue=${encodeURIComponent(`${location.pathname}${location.search}`)}`;
  const texts = purposeTexts(t, purpose);
  return (
    <DialogBody>
      <DialogTitle>{texts.title}</DialogTitle>
      <DialogContent>
        {own.isLoading ? <Spinner size="small" label={t('common:loading')} /> : null}
        {own.error ? <Alert type="error">{t('secupass:errors.loadError')}</Alert> : null}
        {state === 'reset' || state === 'none' ? (
          <>
            {state === 'reset' ? (
              <Alert type="warning" title={t('secupass:reset.title')}>
                {t('secupass:reset.text')}
              </Alert>
            ) : (
              <Alert type="info">{t('secupass:unlock.noneYet')}</Alert>
            )}
            <RouterLink to={setPath} onClick={onClose}>
              {t('secupass:settings.set')}
            </RouterLink>
          </>
        ) : null}
        {state === 'active' ? (
          <form id={formId} onSubmit={submit} noValidate style={{ display: 'grid', gap: 16 }} aria-busy={form.pending}>
            <p style={{ margin: 0 }}>{t('secupass:unlock.intro')}</p>
            {form.failure ? <Alert type="error">{t('secupass:errors.unlockError')}</Alert> : null}
            <Field label={t('secupass:form.passphrase')} required validationMessage={form.fieldError && t(form.fieldError === 'required' ? 'common:validation.required' : 'secupass:errors.wrongPassphrase')}>
              <Input type="password" name="passphrase" autoComplete="current-password" autoFocus value={form.passphrase} onChange={(_e, data) => form.setPassphrase(data.value)} />
            </Field>
            <div>
              <Checkbox name="keepUnlocked" checked={keep} onChange={(_e, data) => setKeep(data.checked === true)} label={t('secupass:unlock.keep')} aria-describedby={keepHintId} />
              <p id={keepHintId} style={{ margin: '0 0 0 32px', fontSize: 12 }}>
                {t('secupass:unlock.keepHint')}
              </p>
            </div>
          </form>
        ) : null}
      </DialogContent>
      <DialogActions>
        <DialogTrigger disableButtonEnhancement>
          <Button appearance="secondary">{t('common:actions.cancel')}</Button>
        </DialogTrigger>
        {state === 'active' ? (
          <Button type="submit" form={formId} appearance="primary" disabled={form.pending}>
            {form.pending ? t('secupass:unlock.submitting') : texts.submit}
          </Button>
        ) : null}
      </DialogActions>
    </DialogBody>
  );
}
