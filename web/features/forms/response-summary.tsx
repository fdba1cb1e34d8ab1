import { Caption1, makeStyles, Subtitle2, Text, tokens } from '@fluentui/react-components';
import { getFormResponseSummary } from '@shared/api/endpoints/form-admin';
import type { FormResponseSummary, SummaryField } from '@shared/contract/form-response-summary';
import type { Form } from '@shared/contract/forms';
import { Alert } from '@web/components/alert';
import { apiClient } from '@web/lib/api-client';
import { useTranslation } from 'react-i18next';
import useSWR from 'swr';

/**
 * The response summary (issue 33 §3, shared/contract/form-response-summary.ts) of a level 1/2 form:
 * per choice or rating field a table of counts whose last column draws the bar (CSS, hidden from
 * screen readers: the table's numbers say the same), per number field its figures.
 */

const useStyles = makeStyles({
  grid: { display: 'grid', gap: '16px', gridTemplateColumns: 'repeat(auto-fit, minmax(260px, 1fr))' },
  table: { borderCollapse: 'collapse', width: '100%' },
  cell: { padding: '2px 8px 2px 0', textAlign: 'start', verticalAlign: 'middle' },
  count: { padding: '2px 8px', textAlign: 'end' },
  track: { width: '100%', minWidth: '60px', height: '12px', backgroundColor: tokens.colorNeutralBackground3, borderRadius: tokens.borderRadiusSmall },
  bar: { height: '12px', backgroundColor: tokens.colorBrandBackground, borderRadius: tokens.borderRadiusSmall },
});

function FieldFigures({ field }: { field: SummaryField }) {
  const { t } = useTranslation();
  const styles = useStyles();
  const most = Math.max(1, ...field.counts.map((c) => c.count));
  const figures = field.average === null ? null : t('formAdmin:summary.figures', { min: field.min, average: field.average, max: field.max });
  return (
    <section aria-label={field.name}>
      <Subtitle2 as="h3">{field.name}</Subtitle2>
      <Caption1 as="p">{t('formAdmin:summary.answered', { count: field.answered })}</Caption1>
      {figures ? <Text as="p">{figures}</Text> : null}
      {field.counts.length > 0 ? (
        <table className={styles.table}>
          <thead>
            <tr>
              <th className={styles.cell} scope="col">
                {field.type === 'rating' ? t('formAdmin:summary.stars') : t('formAdmin:summary.option')}
              </th>
              <th className={styles.count} scope="col">
                {t('formAdmin:summary.count')}
              </th>
              <td />
            </tr>
          </thead>
          <tbody>
            {field.counts.map((c) => (
              <tr key={c.value}>
                <th className={styles.cell} scope="row">
                  {c.value}
                </th>
                <td className={styles.count}>{c.count}</td>
                <td className={styles.cell} aria-hidden>
                  <div className={styles.track}>
                    <div className={styles.bar} style={{ width: `${(c.count / most) * 100}%` }} />
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </section>
  );
}

/** A level 1/2 form's summary, from the server's kept values. */
export function ResponseSummary({ form }: { form: Form }) {
  const { t } = useTranslation();
  const { data, error } = useSWR(['forms/summary', form.formUuid], () => getFormResponseSummary(apiClient, form.formUuid), { revalidateOnFocus: false });
  if (error) return <Alert type="error" title={t('formAdmin:summary.loadError')} />;
  return data ? <ResponseSummaryView summary={data} /> : null;
}

/** The summary's figures, from the server (levels 1/2) or computed in the browser from decrypted values (levels 3/4). */
export function ResponseSummaryView({ summary: data }: { summary: FormResponseSummary }) {
  const { t } = useTranslation();
  const styles = useStyles();
  if (data.fields.length === 0) return null;
  return (
    <section aria-labelledby="form-summary-title">
      <Subtitle2 as="h2" id="form-summary-title">
        {t('formAdmin:summary.title', { count: data.total })}
      </Subtitle2>
      <div className={styles.grid}>
        {data.fields.map((field) => (
          <FieldFigures key={field.name} field={field} />
        ))}
      </div>
    </section>
  );
}
