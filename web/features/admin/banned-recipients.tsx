import { Button, Field, Input, makeStyles, Text } from '@fluentui/react-components';
import { isApiError } from '@shared/api/api-error';
import { DataTable, type DataTableColumn } from '@web/components/data-table';
import { useNotify } from '@web/lib/toasts';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { banRecipient, liftBan, useBannedRecipients } from './api/user-admin';

const useStyles = makeStyles({
  section: { marginTop: '32px', display: 'flex', flexDirection: 'column', gap: '12px' },
  form: { display: 'flex', gap: '12px', alignItems: 'end', flexWrap: 'wrap' },
});

/** Banned recipients (SPEC §6): addresses or @domains nobody can send to. */
export function BannedRecipientsSection() {
  const { t } = useTranslation();
  const styles = useStyles();
  const notify = useNotify();
  const banned = useBannedRecipients();
  const [entry, setEntry] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [pending, setPending] = useState(false);

  async function ban(event: FormEvent) {
    event.preventDefault();
    const value = entry.trim().toLowerCase();
    if (!/^[^\s@,]*@[^\s@,]+\.[^\s@,]+$/.test(value)) {
      setError(t('admin:banned.invalid'));
      return;
    }
    setError(undefined);
    setPending(true);
    try {
      await banned.mutate(await banRecipient(value), { revalidate: false });
      notify('success', t('admin:banned.done', { entry: value }));
      setEntry('');
    } catch (failure) {
      notify('error', t('admin:banned.failed', { entry: value }), isApiError(failure) && failure.status === 400 ? t('admin:banned.invalid') : undefined);
    } finally {
      setPending(false);
    }
  }

  async function lift(value: string) {
    try {
      await banned.mutate(await liftBan(value), { revalidate: false });
      notify('success', t('admin:banned.lifted', { entry: value }));
    } catch {
      notify('error', t('admin:banned.liftFailed', { entry: value }));
      void banned.mutate();
    }
  }

  const columns: DataTableColumn<string>[] = [
    { id: 'entry', header: t('admin:banned.columns.entry'), cell: (value) => value },
    {
      id: 'actions',
      header: t('admin:banned.columns.actions'),
      cell: (value) => (
        <Button size="small" aria-label={t('admin:banned.liftFor', { entry: value })} onClick={() => void lift(value)}>
          {t('admin:banned.lift')}
        </Button>
      ),
    },
  ];

  return (
    <section className={styles.section} aria-labelledby="banned-title">
      <Text as="h2" size={500} weight="semibold" id="banned-title">
        {t('admin:banned.title')}
      </Text>
      <Text as="p" style={{ margin: 0 }}>
        {t('admin:banned.intro')}
      </Text>
      <form className={styles.form} onSubmit={(event) => void ban(event)} noValidate>
        <Field label={t('admin:banned.entry')} hint={t('admin:banned.entryHint')} validationMessage={error}>
          <Input value={entry} onChange={(_e, data) => setEntry(data.value)} style={{ minWidth: 280 }} />
        </Field>
        <Button type="submit" disabled={pending}>
          {t('admin:banned.submit')}
        </Button>
      </form>
      <DataTable
        label={t('admin:banned.title')}
        columns={columns}
        rows={banned.data?.entries}
        rowKey={(value) => value}
        loading={banned.isLoading}
        {...(banned.error ? { error: t('admin:banned.loadError') } : {})}
        empty={<Text as="p">{t('admin:banned.empty')}</Text>}
      />
    </section>
  );
}
