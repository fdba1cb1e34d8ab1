import { Badge, Card, CardHeader, makeStyles, ProgressBar, Spinner, Subtitle2, Text, tokens } from '@fluentui/react-components';
import { LICENCE_HOLDERS_SHOWN, type LicenceCount, type LicenceHolder } from '@shared/contract/licence';
import { Alert } from '@web/components/alert';
import { DataTable } from '@web/components/data-table';
import { PageHeading } from '@web/components/page-heading';
import { useTranslation } from 'react-i18next';
import { useLicenceOverview } from './api/licence';

const useStyles = makeStyles({
  list: { display: 'grid', gap: '16px' },
  figures: { display: 'flex', alignItems: 'center', gap: '12px', flexWrap: 'wrap' },
  count: { fontSize: tokens.fontSizeBase500, fontWeight: tokens.fontWeightSemibold },
  text: { margin: 0 },
  muted: { margin: 0, color: tokens.colorNeutralForeground2 },
});

type LicenceState = 'unlimited' | 'free' | 'full' | 'over';

function stateOf(licence: LicenceCount): LicenceState {
  if (licence.cap === null) return 'unlimited';
  if (licence.used > licence.cap) return 'over';
  return licence.used === licence.cap ? 'full' : 'free';
}

const BADGE_COLOR: Record<LicenceState, 'success' | 'informative' | 'warning' | 'danger'> = { unlimited: 'informative', free: 'success', full: 'warning', over: 'danger' };

/**
 * Administration › Licence: each licence's count against the cap the operator set
 * (KUVERT_LICENCE_*, never in the web client), who holds it and what happens at the cap.
 */
export function LicencePage() {
  const { t } = useTranslation();
  const styles = useStyles();
  const overview = useLicenceOverview();

  return (
    <>
      <PageHeading focusOnMount>{t('admin:licence.title')}</PageHeading>
      <Text as="p" className={styles.muted} style={{ marginBottom: 16 }}>
        {t('admin:licence.intro')}
      </Text>
      {overview.error ? <Alert type="error">{t('admin:licence.loadError')}</Alert> : null}
      {!overview.data && !overview.error ? <Spinner label={t('common:loading')} /> : null}
      <div className={styles.list}>
        {overview.data?.licences.map((licence) => <LicenceCard key={licence.kind} licence={licence} />)}
      </div>
    </>
  );
}

function LicenceCard({ licence }: { licence: LicenceCount }) {
  const { t } = useTranslation();
  const styles = useStyles();
  const state = stateOf(licence);
  const headingId = `licence-${licence.kind}`;
  const kind = `admin:licence.kinds.${licence.kind}`;
  const figures = licence.cap === null ? t('admin:licence.usedUnlimited', { used: licence.used }) : t('admin:licence.usedOfCap', { used: licence.used, cap: licence.cap });
  return (
    <Card data-testid={headingId}>
      <CardHeader header={<Subtitle2 as="h2" id={headingId}>{t(`${kind}.title`)}</Subtitle2>} description={<Text className={styles.muted}>{t(`${kind}.description`)}</Text>} />
      <div className={styles.figures}>
        <Text className={styles.count} data-testid={`${headingId}-figures`}>
          {figures}
        </Text>
        <Badge appearance="tint" color={BADGE_COLOR[state]}>
          {t(`admin:licence.state.${state}`)}
        </Badge>
      </div>
      {licence.cap !== null && licence.cap > 0 ? (
        <ProgressBar
          value={Math.min(1, licence.used / licence.cap)}
          color={state === 'over' ? 'error' : state === 'full' ? 'warning' : 'brand'}
          aria-label={figures}
          thickness="large"
        />
      ) : null}
      <Text as="p" className={styles.text}>
        {licence.cap === null ? t('admin:licence.noCap') : t(`${kind}.atCap`)}
      </Text>
      {state === 'over' ? <Alert type="warning">{t('admin:licence.overused')}</Alert> : null}
      {licence.available ? (
        // Active forms are counted, not held by people: no holder table.
        licence.kind === 'activeForms' ? null : <HolderTable licence={licence} labelledBy={headingId} />
      ) : (
        <Text as="p" className={styles.muted}>
          {t(`${kind}.notAvailable`)}
        </Text>
      )}
    </Card>
  );
}

function HolderTable({ licence, labelledBy }: { licence: LicenceCount; labelledBy: string }) {
  const { t } = useTranslation();
  const styles = useStyles();
  const name = (h: LicenceHolder) => [h.firstName, h.lastName].filter(Boolean).join(' ') || '—';
  return (
    <>
      <DataTable
        labelledBy={labelledBy}
        size="small"
        rows={licence.holders}
        rowKey={(h) => h.uuid}
        columns={[
          { id: 'name', header: t('admin:licence.columns.name'), cell: name },
          { id: 'email', header: t('admin:licence.columns.email'), cell: (h) => h.email },
          {
            id: 'status',
            header: t('admin:licence.columns.status'),
            // The same status and words as the users page (a disabled account holds no licence, so is not listed).
            cell: (h) =>
              h.emailVerified ? (
                <Badge appearance="tint" color="success">
                  {t('admin:users.enabled')}
                </Badge>
              ) : (
                <Badge appearance="tint" color="warning">
                  {t('admin:users.unverified')}
                </Badge>
              ),
          },
        ]}
        empty={<Text className={styles.muted}>{t('admin:licence.noHolders')}</Text>}
      />
      {licence.used > licence.holders.length ? (
        <Text as="p" className={styles.muted}>
          {t('admin:licence.moreHolders', { shown: LICENCE_HOLDERS_SHOWN, used: licence.used })}
        </Text>
      ) : null}
    </>
  );
}
