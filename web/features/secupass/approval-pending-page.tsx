import { makeStyles } from '@fluentui/react-components';
import { Alert } from '@web/components/alert';
import { PageHeading } from '@web/components/page-heading';
import { RouterLink } from '@web/components/router-link';
import { ROUTES, safeContinueTarget } from '@web/lib/routes';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { SecuPassCard } from './secupass-card';

const useStyles = makeStyles({ links: { display: 'flex', gap: '16px', flexWrap: 'wrap' } });

/**
 * SPEC §2/§4: after creating a passphrase from an invitation the sender must release the delivery;
 * the recipient is mailed then. `continue` (the delivery the invitation came from) is offered back.
 */
export function SecuPassApprovalPendingPage() {
  const { t } = useTranslation();
  const styles = useStyles();
  const [params] = useSearchParams();
  const target = safeContinueTarget(params.get('continue'));
  return (
    <SecuPassCard>
      <PageHeading focusOnMount>{t('secupass:approval.title')}</PageHeading>
      <Alert type="success">{t('secupass:approval.text')}</Alert>
      <p>{t('secupass:approval.mail')}</p>
      <div className={styles.links}>
        {target ? <RouterLink to={target}>{t('secupass:approval.toDelivery')}</RouterLink> : null}
        <RouterLink to={ROUTES.inbox}>{t('secupass:approval.toInbox')}</RouterLink>
      </div>
    </SecuPassCard>
  );
}
