import { Button, MessageBar, MessageBarBody, Spinner, Subtitle1, makeStyles } from '@fluentui/react-components';
import type { OfficeHost } from '@addin/office/office-host';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { deliveryLinksIn } from './delivery-links';

const useStyles = makeStyles({ screen: { display: 'grid', gap: '12px' } });

/** Read mode: opens the Kuvert delivery a received mail announces in the browser. */
export function ReadScreen({ host }: { host: OfficeHost }) {
  const { t } = useTranslation();
  const styles = useStyles();
  const [links, setLinks] = useState<string[] | null>(null);

  useEffect(() => {
    host
      .getBody()
      .then((text) => setLinks(deliveryLinksIn(text, window.location.origin)))
      .catch(() => setLinks([]));
  }, [host]);

  if (links === null) return <Spinner label={t('addin:read.loading')} />;
  return (
    <div className={styles.screen}>
      <Subtitle1 as="h1">{t('addin:read.title')}</Subtitle1>
      {links.length === 0 ? (
        <MessageBar intent="info">
          <MessageBarBody>{t('addin:read.none')}</MessageBarBody>
        </MessageBar>
      ) : (
        links.map((link) => (
          <Button key={link} appearance="primary" onClick={() => window.open(link, '_blank', 'noopener')}>
            {t('addin:read.open')}
          </Button>
        ))
      )}
    </div>
  );
}
