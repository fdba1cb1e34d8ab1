import { Button, Field, Input, makeStyles } from '@fluentui/react-components';
import { QUOTA_MAX_BYTES } from '@shared/contract/storage-quotas';
import { useNotify } from '@web/lib/toasts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

const MIB = 1024 ** 2;

/** The administrator types MiB (as the other size settings); empty: no quota; 'invalid': not a size. */
export function parseQuotaMib(text: string): number | null | 'invalid' {
  const trimmed = text.trim().replace(',', '.');
  if (trimmed === '') return null;
  const mib = Number(trimmed);
  if (!Number.isFinite(mib) || mib < 0) return 'invalid';
  const bytes = Math.round(mib * MIB);
  return bytes > QUOTA_MAX_BYTES ? 'invalid' : bytes;
}

export const quotaText = (bytes: number | null): string => (bytes === null ? '' : String(Math.round((bytes / MIB) * 100) / 100));

const useStyles = makeStyles({
  row: { display: 'flex', gap: '8px', alignItems: 'end', flexWrap: 'wrap' },
  input: { maxWidth: '160px' },
});

/** A quota in MiB with its own save button (empty = none); `onSave` gets bytes or null and may throw. */
export function QuotaField({ label, hint, value, onSave }: { label: string; hint?: string; value: number | null; onSave: (bytes: number | null) => Promise<void> }) {
  const { t } = useTranslation();
  const styles = useStyles();
  const notify = useNotify();
  const [text, setText] = useState(quotaText(value));
  const [problem, setProblem] = useState<string | undefined>();
  const [pending, setPending] = useState(false);

  async function save() {
    const parsed = parseQuotaMib(text);
    if (parsed === 'invalid') {
      setProblem(t('admin:quotas.invalid'));
      return;
    }
    setProblem(undefined);
    setPending(true);
    try {
      await onSave(parsed);
      notify('success', t('admin:quotas.saved'));
    } catch {
      notify('error', t('admin:quotas.saveFailed'));
    } finally {
      setPending(false);
    }
  }

  return (
    <div className={styles.row}>
      <Field label={label} hint={hint ?? t('admin:quotas.hint')} validationMessage={problem}>
        <Input className={styles.input} inputMode="decimal" value={text} contentAfter={t('admin:settingsForm.units.mib')} onChange={(_e, data) => setText(data.value)} />
      </Field>
      <Button type="button" onClick={() => void save()} disabled={pending}>
        {t('admin:quotas.save')}
      </Button>
    </div>
  );
}
