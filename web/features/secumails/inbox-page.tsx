import { Body1, makeStyles, Subtitle1 } from '@fluentui/react-components';
import { MailInboxRegular } from '@fluentui/react-icons';
import { PageHeading } from '@web/components/page-heading';
import { useTranslation } from 'react-i18next';

const useStyles = makeStyles({
  empty: { display: 'grid', justifyItems: 'center', gap: '8px', padding: '48px 16px', textAlign: 'center' },
  icon: { fontSize: '48px' },
});

/** Inbox list; deliveries arrive with a later issue, so for now the empty state (SPEC §2). */
export function InboxPage() {
  const { t } = useTranslation();
  const styles = useStyles();
  return (
    <>
      <PageHeading focusOnMount>{t('shell:inbox.title')}</PageHeading>
      <section className={styles.empty} aria-labelledby="inbox-empty-title">
        <MailInboxRegular className={styles.icon} aria-hidden="true" />
        <Subtitle1 as="h2" id="inbox-empty-title">
          {t('shell:inbox.emptyTitle')}
        </Subtitle1>
        <Body1 as="p">{t('shell:inbox.emptyText')}</Body1>
      </section>
    </>
  );
}
