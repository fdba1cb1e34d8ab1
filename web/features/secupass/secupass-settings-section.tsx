import { Button, Card, makeStyles, Spinner, Subtitle1, Text, tokens } from '@fluentui/react-components';
import { Alert } from '@web/components/alert';
import { RouterLink } from '@web/components/router-link';
import { cryptoApi, secuPassKeys, useSecuPassSession } from '@web/lib/crypto';
import { ROUTES } from '@web/lib/routes';
import { Fragment, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import useSWR from 'swr';
import { useOwnSecuPass } from './api/own-secupass';
import { fingerprintGroups } from '@web/lib/fingerprint';
import { UnlockSecuPassDialog } from './unlock-secupass-dialog';

const useStyles = makeStyles({
  section: { padding: '24px', marginBottom: '16px', display: 'grid', gap: '16px', maxWidth: '560px' },
  fingerprint: {
    display: 'grid',
    gridTemplateColumns: 'repeat(4, max-content)',
    columnGap: '12px',
    rowGap: '4px',
    margin: 0,
    fontFamily: tokens.fontFamilyMonospace,
    fontSize: tokens.fontSizeBase400,
  },
  row: { display: 'flex', gap: '12px', flexWrap: 'wrap', alignItems: 'center' },
});

/** The fingerprint of a public key, recomputed locally (never the server's word), in groups of four. */
function Fingerprint({ publicKey, labelId }: { publicKey: string; labelId: string }) {
  const { t } = useTranslation();
  const styles = useStyles();
  const result = useSWR(['secupass/fingerprint', publicKey], ([, key]) => cryptoApi.fingerprint({ publicKey: key }), { revalidateOnFocus: false });
  if (result.isLoading) return <Spinner size="tiny" label={t('common:loading')} />;
  if (result.error || !result.data) return <Alert type="error">{t('secupass:settings.fingerprintError')}</Alert>;
  const groups = fingerprintGroups(result.data.fingerprintDisplay);
  return (
    <p className={styles.fingerprint} aria-labelledby={labelId} data-testid="secupass-fingerprint">
      {/* The spaces between groups are not rendered by the grid but let screen readers read groups one by one. */}
      {groups.map((group, index) => (
        <Fragment key={index}>
          <span>{group}</span>{' '}
        </Fragment>
      ))}
    </p>
  );
}

/** Account settings: SecuPass state, own encryption-key fingerprint, set/change, session lock (SPEC §1, §4). */
export function SecuPassSettingsSection() {
  const { t } = useTranslation();
  const styles = useStyles();
  const headingId = useId();
  const fingerprintLabelId = useId();
  const own = useOwnSecuPass();
  const session = useSecuPassSession();
  const [unlockOpen, setUnlockOpen] = useState(false);

  let body;
  if (own.isLoading) body = <Spinner size="small" label={t('common:loading')} />;
  else if (own.error || !own.data) body = <Alert type="error">{t('secupass:errors.loadError')}</Alert>;
  else if (own.data.state !== 'active') {
    body = (
      <>
        {own.data.state === 'reset' ? (
          <Alert type="warning" title={t('secupass:reset.title')}>
            {t('secupass:reset.text')}
          </Alert>
        ) : (
          <p style={{ margin: 0 }}>{t('secupass:settings.notSet')}</p>
        )}
        <div>
          <RouterLink to={ROUTES.setSecuPass}>{t('secupass:settings.set')}</RouterLink>
        </div>
      </>
    );
  } else {
    const encryptionKey = own.data.publicKeys.find((key) => key.usage === 'encryption');
    body = (
      <>
        <p style={{ margin: 0 }}>{t('secupass:settings.active')}</p>
        {encryptionKey ? (
          <div>
            <Text as="p" weight="semibold" id={fingerprintLabelId} style={{ margin: '0 0 4px' }}>
              {t('secupass:settings.fingerprint')}
            </Text>
            <Fingerprint publicKey={encryptionKey.publicKey} labelId={fingerprintLabelId} />
            <Text as="p" size={200} style={{ margin: '4px 0 0' }}>
              {t('secupass:settings.fingerprintHint')}
            </Text>
          </div>
        ) : null}
        <div className={styles.row}>
          <Text>{session ? t('secupass:settings.unlocked') : t('secupass:settings.locked')}</Text>
          {session ? (
            <Button onClick={() => void secuPassKeys.lock()}>{t('secupass:settings.lock')}</Button>
          ) : (
            <Button onClick={() => setUnlockOpen(true)}>{t('secupass:settings.unlock')}</Button>
          )}
        </div>
        <div>
          <RouterLink to={ROUTES.changeSecuPass}>{t('secupass:settings.change')}</RouterLink>
        </div>
        <UnlockSecuPassDialog open={unlockOpen} onOpenChange={setUnlockOpen} />
      </>
    );
  }
  return (
    <Card className={styles.section} role="region" aria-labelledby={headingId}>
      <Subtitle1 as="h2" id={headingId}>
        {t('secupass:settings.title')}
      </Subtitle1>
      {body}
    </Card>
  );
}
