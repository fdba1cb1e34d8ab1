import { Button, makeStyles, tokens } from '@fluentui/react-components';
import type { ConfigProfile } from '@shared/api/endpoints/config-profile';
import { setAnalyticsConsent, useAnalyticsConsent } from '@web/lib/analytics/consent';
import { analyticsSettings } from '@web/lib/analytics/settings';
import { useTranslation } from 'react-i18next';

const useStyles = makeStyles({
  banner: {
    display: 'flex',
    flexWrap: 'wrap',
    gap: '8px 16px',
    alignItems: 'center',
    padding: '12px 16px',
    background: tokens.colorNeutralBackground3,
    borderBottom: `1px solid ${tokens.colorNeutralStroke2}`,
  },
  text: { flex: '1 1 320px', margin: 0 },
  actions: { display: 'flex', gap: '8px' },
});

/**
 * Asks once per browser, on every page including sign-in, whether usage analytics may run; shown
 * only when the operator configured analytics. Until the answer is "Allow" nothing of it loads.
 */
export function AnalyticsConsentBanner({ config }: { config: ConfigProfile }) {
  const { t } = useTranslation();
  const styles = useStyles();
  const consent = useAnalyticsConsent();
  const settings = analyticsSettings(config);
  if (!settings || consent !== null) return null;
  let host = settings.serverUrl;
  try {
    host = new URL(settings.serverUrl).host;
  } catch {
    // analyticsSettings only passes http(s) URLs; keep the text as configured otherwise
  }
  return (
    <section aria-label={t('shell:analyticsConsent.label')} className={styles.banner} data-testid="analytics-consent">
      <p className={styles.text}>{t('shell:analyticsConsent.text', { host })}</p>
      <div className={styles.actions}>
        <Button appearance="primary" onClick={() => setAnalyticsConsent('granted')}>
          {t('shell:analyticsConsent.allow')}
        </Button>
        <Button onClick={() => setAnalyticsConsent('denied')}>{t('shell:analyticsConsent.decline')}</Button>
      </div>
    </section>
  );
}
