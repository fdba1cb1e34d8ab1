import { Button } from '@fluentui/react-components';
import { Alert } from '@web/components/alert';
import { useTranslation } from 'react-i18next';
import { useRouteError } from 'react-router';

/** Shown when a page fails to load or render (e.g. an unhandled chunk load failure). */
export function RouteError() {
  const { t } = useTranslation();
  const error = useRouteError();
  console.error(error);
  return (
    <main id="main-content" style={{ padding: 24 }}>
      <Alert type="error" title={t('shell:routeError.title')}>
        {t('shell:routeError.text')}
      </Alert>
      <Button onClick={() => window.location.reload()}>{t('shell:routeError.reload')}</Button>
    </main>
  );
}
