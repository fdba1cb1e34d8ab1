import { Spinner } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';

/** Full-page loading indicator until configuration and auth state are ready (SPEC §2). */
export function LoadingScreen() {
  const { t } = useTranslation();
  return (
    <div role="status" style={{ display: 'grid', placeItems: 'center', minHeight: '60vh' }}>
      <Spinner size="large" label={t('common:loading')} labelPosition="below" />
    </div>
  );
}
