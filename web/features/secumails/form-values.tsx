import { Caption1, makeStyles, Spinner, Subtitle2, tokens } from '@fluentui/react-components';
import { deliveryContentUrl } from '@shared/api/endpoints/delivery-read';
import type { FormValuesDocument } from '@shared/contract/form-e2e';
import type { OpenedE2eDelivery } from '@shared/transfer/e2e';
import { formValuesFileOf, readFormValues } from '@shared/transfer/form-submit';
import { Alert } from '@web/components/alert';
import { cryptoApi } from '@web/lib/crypto';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

const useStyles = makeStyles({
  list: { display: 'grid', gridTemplateColumns: 'max-content 1fr', columnGap: '16px', rowGap: '4px', margin: 0 },
  name: { fontWeight: tokens.fontWeightSemibold },
  value: { margin: 0, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' },
});

function show(value: unknown): string {
  if (typeof value === 'string') return value.startsWith('data:image/') ? '✍' : value;
  if (Array.isArray(value)) return value.map((v) => (typeof v === 'string' ? v : typeof v === 'object' && v !== null && 'name' in v ? String((v as { name: unknown }).name) : JSON.stringify(v))).join(', ');
  return JSON.stringify(value);
}

/**
 * A level 3/4 form submission (shared/contract/form-e2e.ts): its values travel as the encrypted
 * file `form-values.json`. Once the delivery is open, it is decrypted in memory (crypto Worker) and
 * shown here; the file also stays in the list for download.
 */
export function FormValuesSection({ opened, deliveryUuid }: { opened: OpenedE2eDelivery; deliveryUuid: string }) {
  const { t } = useTranslation();
  const styles = useStyles();
  const file = formValuesFileOf(opened);
  const [document, setDocument] = useState<FormValuesDocument | 'loading' | 'failed'>('loading');

  useEffect(() => {
    if (!file) return;
    let cancelled = false;
    void (async () => {
      try {
        const parsed = await readFormValues({ delivery: opened, crypto: cryptoApi, url: (fileId) => deliveryContentUrl(deliveryUuid, fileId), fetch: globalThis.fetch.bind(globalThis) });
        if (!cancelled && parsed) setDocument(parsed);
      } catch (error) {
        console.debug('[e2e] form values', error);
        if (!cancelled) setDocument('failed');
      }
    })();
    return () => {
      cancelled = true;
    };
  }, [opened, file, deliveryUuid]);

  if (!file) return null;
  return (
    <section aria-labelledby="form-values-title">
      <Subtitle2 as="h4" id="form-values-title">
        {t('deliveries:formValues.title')}
      </Subtitle2>
      {document === 'loading' ? <Spinner size="tiny" label={t('deliveries:formValues.loading')} /> : null}
      {document === 'failed' ? <Alert type="error">{t('deliveries:formValues.failed')}</Alert> : null}
      {typeof document === 'object' ? (
        <>
          <Caption1 as="p">{document.formName}</Caption1>
          <dl className={styles.list} data-testid="form-values">
            {Object.entries(document.values).map(([name, value]) => (
              <div key={name} style={{ display: 'contents' }}>
                <dt className={styles.name}>{name}</dt>
                <dd className={styles.value} dir="auto">
                  {show(value)}
                </dd>
              </div>
            ))}
            {Object.entries(document.texts ?? {}).map(([name, text]) => (
              <div key={`text:${name}`} style={{ display: 'contents' }}>
                <dt className={styles.name}>{name}</dt>
                <dd className={styles.value} dir="auto">
                  {text}
                </dd>
              </div>
            ))}
          </dl>
        </>
      ) : null}
    </section>
  );
}
