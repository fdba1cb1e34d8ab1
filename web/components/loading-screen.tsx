import { Spinner } from '@fluentui/react-components';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';

/** Full-page loading indicator until configuration and auth state are ready (SPEC §2). */
export function LoadingScreen() {
  const { t } = useTranslation();
  // While loading, the page title is the loading text (SPEC §2).
  useEffect(() => {
    document.title = t('common:loading');
  }, [t]);
  return (
    <div role="status" style={{ display: 'grid', placeItems: 'center', minHeight: '60vh' }}>
      <Spinner size="large" label={t('common:loading')} labelPosition="below" />
    </div>
  );
}
