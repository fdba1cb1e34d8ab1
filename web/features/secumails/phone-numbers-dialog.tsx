import { Button, Dialog, DialogActions, DialogBody, DialogContent, DialogSurface, DialogTitle, Field, Input, makeStyles } from '@fluentui/react-components';
import { setDeliveryPhoneNumbers } from '@shared/api/endpoints/external';
import type { DeliveryDetail } from '@shared/contract/deliveries';
import { PHONE_NUMBER_PATTERN } from '@shared/contract/external';
import { Alert } from '@web/components/alert';
import { apiClient } from '@web/lib/api-client';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';

const useStyles = makeStyles({ form: { display: 'flex', flexDirection: 'column', gap: '12px' } });

/** What the server accepts (server/external normalizePhoneNumber): blanks, dashes, brackets, slashes and dots dropped, then E.164. */
export function normalisePhone(raw: string): string | null {
  const compact = raw.replace(/[\s\-()/.]/g, '');
  return PHONE_NUMBER_PATTERN.test(compact) ? compact : null;
}

interface PhoneNumbersFormProps {
  recipients: readonly string[];
  initial?: Readonly<Record<string, string>>;
  saveLabel: string;
  /** The normalised numbers by address (only those filled in); a rejection shows the error and keeps the dialog. */
  onSave: (numbers: Record<string, string>) => Promise<void> | void;
  onCancel: () => void;
}

/**
 * Recipients' phone numbers for the SMS second factor of their delivery signup (SPEC §2 dialog,
 * §5 format +49123456789). Empty fields are left out; any other field must be a valid number.
 * Render it always and close it through `open`: a Fluent dialog unmounted while open can leave
 * the page aria-hidden. The form mounts with the surface, so each opening starts from `initial`.
 */
export function PhoneNumbersDialog({ open, ...form }: PhoneNumbersFormProps & { open: boolean }) {
  return (
    <Dialog open={open} onOpenChange={(_e, d) => (d.open ? undefined : form.onCancel())}>
      <DialogSurface>
        <PhoneNumbersForm {...form} />
      </DialogSurface>
    </Dialog>
  );
}

function PhoneNumbersForm({ recipients, initial = {}, saveLabel, onSave, onCancel }: PhoneNumbersFormProps) {
  const { t } = useTranslation();
  const styles = useStyles();
  const [values, setValues] = useState<Record<string, string>>(() => ({ ...initial }));
  const [checked, setChecked] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  const invalid = (email: string) => {
    const raw = values[email]?.trim() ?? '';
    return raw !== '' && normalisePhone(raw) === null;
  };

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setChecked(true);
    if (recipients.some(invalid)) return;
    const numbers: Record<string, string> = {};
    for (const email of recipients) {
      const phone = normalisePhone(values[email]?.trim() ?? '');
      if (phone) numbers[email] = phone;
    }
    setBusy(true);
    setFailed(false);
    try {
      await onSave(numbers);
    } catch (err) {
      console.debug('[phone-numbers] save failed', err);
      setFailed(true);
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={(e) => void submit(e)} noValidate>
      <DialogBody>
        <DialogTitle>{t('deliveries:phoneNumbers.title')}</DialogTitle>
        <DialogContent className={styles.form}>
          <p>{t('deliveries:phoneNumbers.text')}</p>
          {recipients.map((email) => (
            <Field
              key={email}
              label={t('deliveries:phoneNumbers.label', { email })}
              // While the number is wrong the error replaces the hint: one message, in the error style (icon, colour, alert).
              hint={checked && invalid(email) ? undefined : t('deliveries:phoneNumbers.hint')}
              validationMessage={checked && invalid(email) ? t('deliveries:phoneNumbers.invalid') : undefined}
              validationState={checked && invalid(email) ? 'error' : 'none'}
            >
              <Input type="tel" inputMode="tel" autoComplete="off" placeholder="+49123456789" value={values[email] ?? ''} onChange={(_, d) => setValues((v) => ({ ...v, [email]: d.value }))} />
            </Field>
          ))}
          {failed ? <Alert type="error">{t('deliveries:phoneNumbers.saveFailed')}</Alert> : null}
        </DialogContent>
        <DialogActions>
          <Button appearance="secondary" onClick={onCancel} disabled={busy}>
            {t('common:actions.cancel')}
          </Button>
          <Button appearance="primary" type="submit" disabled={busy}>
            {saveLabel}
          </Button>
        </DialogActions>
      </DialogBody>
    </form>
  );
}

/** Sent detail (SPEC §2): unregistered recipients who need an SMS code at signup but have no phone number yet. */
export function MissingPhoneNumbersAlert({ delivery, onSaved }: { delivery: DeliveryDetail; onSaved: () => void }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const missing = delivery.recipients.filter((r) => r.phoneNumberMissing).map((r) => r.email);
  // Kept while the dialog is open even if a refresh finds nothing missing: it closes through `open`.
  if (missing.length === 0 && !open) return null;
  return (
    <>
      {missing.length > 0 ? (
        <Alert
          type="warning"
          title={t('deliveries:phoneNumbers.missingTitle')}
          action={
            <Button size="small" onClick={() => setOpen(true)}>
              {t('deliveries:phoneNumbers.add')}
            </Button>
          }
        >
          {t('deliveries:phoneNumbers.missingText', { recipients: missing.join(', ') })}
        </Alert>
      ) : null}
      <PhoneNumbersDialog
        open={open}
        recipients={missing}
        saveLabel={t('deliveries:phoneNumbers.save')}
        onCancel={() => setOpen(false)}
        onSave={async (numbers) => {
          const entries = Object.entries(numbers).map(([email, phoneNumber]) => ({ email, phoneNumber }));
          if (entries.length > 0) await setDeliveryPhoneNumbers(apiClient, delivery.deliveryUuid, { phoneNumbers: entries });
          setOpen(false);
          onSaved();
        }}
      />
    </>
  );
}
